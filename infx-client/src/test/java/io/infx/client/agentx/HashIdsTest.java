package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HashIdsTest {

  @Test
  void sharingStoresOnlyTheTailButMaterializesEverything() {
    HashIds a = HashIds.of(0, 1, 2, 3);
    HashIds b = HashIds.sharing(a, a.toArray(), new int[] {0, 1, 2, 3, 4, 5});
    HashIds c = HashIds.sharing(b, b.toArray(), new int[] {0, 1, 9});
    assertThat(b.toArray()).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(c.toArray()).containsExactly(0, 1, 9);
    assertThat(c.size()).isEqualTo(3);
    assertThat(HashIds.sharing(c, c.toArray(), new int[] {7})).isEqualTo(HashIds.of(7));
  }

  @Test
  void anyChainOfPromptsRoundTrips() {
    // each step: keep a random prefix of the previous ids, append random new ones
    qt().forAll(lists().of(integers().between(0, 40)).ofSizeBetween(1, 120))
        .checkAssert((List<Integer> steps) -> {
          int[] prev = new int[0];
          HashIds prevIds = null;
          int next = 0;
          List<int[]> expected = new ArrayList<>();
          List<HashIds> stored = new ArrayList<>();
          for (int s : steps) {
            int keep = Math.min(prev.length, s);
            int[] ids = new int[keep + (s % 7)];
            System.arraycopy(prev, 0, ids, 0, keep);
            for (int i = keep; i < ids.length; i++) {
              ids[i] = next++;
            }
            HashIds h = HashIds.sharing(prevIds, prev, ids);
            expected.add(ids);
            stored.add(h);
            prev = ids;
            prevIds = h;
          }
          for (int i = 0; i < expected.size(); i++) {
            assertThat(stored.get(i).toArray()).containsExactly(expected.get(i));
          }
        });
  }
}
