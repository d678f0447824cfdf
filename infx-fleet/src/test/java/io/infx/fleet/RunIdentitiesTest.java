package io.infx.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.matrix.MatrixRow;
import io.infx.results.MultiNodeTopology;
import io.infx.results.ResultsException;
import io.infx.results.RunIdentity;
import io.infx.results.SingleNodeTopology;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RunIdentitiesTest {

  /** What the reference route gives: the projected environment, read back by process_result's rules. */
  private static Map<String, String> env(MatrixRow row) {
    return new HashMap<>(EnvProjector.standard().project(row, RunnerName.of("b200-nb_1"), RunContext.defaults())
        .values());
  }

  /** Physical GPUs of a worker pool, as a launcher would name them in the result file. */
  private static int gpus(MatrixRow.RowWorker w) {
    return w.numWorker() * w.tp() * w.pp() * w.pcpSize();
  }

  @Test
  void typedIdentityEqualsTheEnvironmentRouteForEveryCorpusRow() {
    List<ObjectNode> rows = SharedCorpus.allMatrixRows();
    int single = 0;
    int multi = 0;
    for (ObjectNode json : rows) {
      MatrixRow row = TestRows.of(json);
      Map<String, String> env = env(row);
      if (row instanceof MatrixRow.OnManyNodes many) {
        int p = gpus(many.prefill());
        int d = gpus(many.decode());
        env.put("PREFILL_GPUS", Integer.toString(p));
        env.put("DECODE_GPUS", Integer.toString(d));
        agree(json, () -> RunIdentity.fromEnvironment(env), () -> RunIdentities.of(row, p, d));
        multi++;
      } else {
        agree(json, () -> RunIdentity.fromEnvironment(env), () -> RunIdentities.of(row));
        single++;
      }
    }
    assertThat(single).isGreaterThan(500);
    assertThat(multi).isGreaterThan(50);
  }

  /** Both give the same identity, or both refuse with the same kind and message. */
  private static void agree(ObjectNode json, Supplier<RunIdentity> viaEnv, Supplier<RunIdentity> typed) {
    RunIdentity expected;
    try {
      expected = viaEnv.get();
    } catch (ResultsException e) {
      assertThatThrownBy(typed::get).as(json.toString()).isInstanceOf(ResultsException.class)
          .hasMessage(e.getMessage());
      return;
    }
    assertThat(typed.get()).as(json.toString()).isEqualTo(expected);
  }

  @Test
  void singleNodeIdentityReadsTheRow() {
    RunIdentity id = RunIdentities.of(TestRows.singleNode(1024, 128, 8));
    assertThat(id.hw()).isEqualTo("h200");
    assertThat(id.modelPrefix()).isEqualTo("qwen3");
    assertThat(id.isl()).isEqualTo(1024);
    assertThat(id.osl()).isEqualTo(128);
    assertThat(id.disagg()).isFalse();
    assertThat(id.recipeFingerprint()).isEmpty();
    assertThat(id.topology()).isInstanceOfSatisfying(SingleNodeTopology.class, t -> {
      assertThat(t.parallelism().tp()).isEqualTo(1);
      assertThat(t.dpAttention()).isEqualTo("false");
    });
  }

  @Test
  void multiNodeRowsNeedTheirGpuCountsAndSingleNodeRowsRefuseThem() {
    MatrixRow multi = SharedCorpus.allMatrixRows().stream().map(TestRows::of)
        .filter(r -> r instanceof MatrixRow.MultiNode m && m.disagg()).findFirst().orElseThrow();
    assertThatThrownBy(() -> RunIdentities.of(multi)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefillGpus, decodeGpus");
    RunIdentity id = RunIdentities.of(multi, 8, 16);
    assertThat(id.disagg()).isTrue();
    assertThat(id.topology()).isInstanceOfSatisfying(MultiNodeTopology.class, t -> {
      assertThat(t.prefillGpus()).isEqualTo(8);
      assertThat(t.decodeGpus()).isEqualTo(16);
      assertThat(t.totalGpus()).isEqualTo(24);
    });
    assertThatThrownBy(() -> RunIdentities.of(TestRows.singleNode(8, 8, 1), 1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RunIdentities.of(row)");
  }
}
