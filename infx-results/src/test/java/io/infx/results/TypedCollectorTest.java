package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Collector#collect(List)} over typed rows gives what {@link Collector#collect(Path, Set)}
 * gives for the same rows written as aggregate files: the rows of the results conformance corpus
 * (every {@code expected.json}), each several times under other hardware labels and with repeats
 * (natural-key duplicates), in a shuffled order.
 */
class TypedCollectorTest {

  @TempDir Path dir;

  private static List<AggregateRow> corpusRows() throws IOException {
    Path corpus = SharedCorpus.conformanceDir("results");
    List<AggregateRow> rows = new ArrayList<>();
    try (Stream<Path> s = Files.list(corpus)) {
      for (Path c : s.sorted().toList()) {
        Path expected = c.resolve("expected.json");
        if (Files.isRegularFile(expected)) {
          rows.add(AggregateRows.fromJson(Json.mapper().readTree(expected.toFile())));
        }
      }
    }
    return rows;
  }

  @Test
  void typedCollectionEqualsTheDirectoryCollectionOfTheSameRows() throws IOException {
    List<AggregateRow> base = corpusRows();
    assertThat(base).hasSizeGreaterThanOrEqualTo(10);
    List<AggregateRow> rows = new ArrayList<>();
    for (String hw : List.of("h100", "b200", "mi355x")) {
      for (AggregateRow r : base) {
        rows.add(ImmutableAggregateRow.copyOf(r).withIdentity(
            ImmutableRunIdentity.copyOf(r.identity()).withHw(hw)));
      }
    }
    rows.add(base.get(0)); // a later duplicate of a corpus row (same natural key)
    rows.add(2, base.get(3));
    java.util.Collections.shuffle(rows, new java.util.Random(18));

    // the same rows as files whose sorted paths give the list's order
    for (int i = 0; i < rows.size(); i++) {
      Files.writeString(dir.resolve(String.format("agg_%04d.json", i)), rows.get(i).toJsonText());
    }
    Collector.Report fromDir = Collector.collect(dir, Set.of());
    Collector.Report typed = Collector.collect(rows);

    assertThat(typed.allRows()).isEqualTo(fromDir.allRows());
    assertThat(typed.acceptedRows()).isEqualTo(fromDir.acceptedRows());
    assertThat(typed.agenticRows()).isEqualTo(fromDir.agenticRows());
    assertThat(typed.invalid()).hasSameSizeAs(fromDir.invalid());
    assertThat(typed.duplicates()).extracting(Collector.Duplicate::key)
        .containsExactlyElementsOf(fromDir.duplicates().stream().map(Collector.Duplicate::key).toList());
    assertThat(typed.duplicates()).isNotEmpty();
    assertThat(typed.entries()).extracting(Collector.Entry::duplicateOf).extracting(o -> o.isPresent())
        .containsExactlyElementsOf(fromDir.entries().stream().map(e -> e.duplicateOf().isPresent()).toList());
    assertThat(typed.skipped()).isEmpty();
    assertThat(typed.entries().get(5).source()).isEqualTo("rows[5]");

    // the written agg_bmk.json: the same bytes
    Path out = Files.createDirectory(dir.resolve("out"));
    Collector.write(out.resolve("typed.json"), rows);
    Collector.write(out.resolve("dir.json"), fromDir.allRows());
    assertThat(Arrays.equals(Files.readAllBytes(out.resolve("typed.json")),
        Files.readAllBytes(out.resolve("dir.json")))).isTrue();
  }

  @Test
  void nullsAreNamed() {
    assertThatThrownBy(() -> Collector.collect((List<AggregateRow>) null)).hasMessage("rows");
    List<AggregateRow> withNull = new ArrayList<>();
    withNull.add(null);
    assertThatThrownBy(() -> Collector.collect(withNull)).isInstanceOf(NullPointerException.class)
        .hasMessage("rows[0]");
  }
}
