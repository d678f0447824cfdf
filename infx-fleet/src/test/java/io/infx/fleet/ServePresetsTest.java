package io.infx.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.ServeJob;
import io.infx.fleet.bench.BenchDriver;
import io.infx.fleet.bench.ClientSettings;
import io.infx.matrix.MatrixRow;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ServePresetsTest {

  private static final URI BASE = URI.create("http://127.0.0.1:18100");
  private static final Path WORKSPACE = Path.of("/tmp/ws");

  /** The typed bridge and the launch path (row → env → BenchDriver) build the same job, row by row. */
  @Test
  void presetEqualsWhatTheFleetRunsFromTheProjectedEnvironmentForEveryCorpusRow() {
    List<ObjectNode> rows = SharedCorpus.allMatrixRows();
    int compared = 0;
    for (ObjectNode json : rows) {
      MatrixRow row = TestRows.of(json);
      if (!(row instanceof MatrixRow.SingleNode)) {
        continue;
      }
      LaunchEnv env = EnvProjector.standard().project(row, RunnerName.of("b200-nb_1"), RunContext.defaults());
      ServeJob viaEnv = BenchDriver.serveJob(env.values(), ClientSettings.defaults(), BASE, false, WORKSPACE);
      ServeJob typed = ServePresets.of(row).baseUrl(BASE)
          .resultDir(WORKSPACE).resultFilename(env.resultFilename() + ".json").progress(false).build();
      assertThat(typed).as(json.toString()).isEqualTo(viaEnv);
      compared++;
    }
    assertThat(compared).isGreaterThan(500);
  }

  @Test
  void presetReadsTheRowsModelLengthsAndConcurrency() {
    MatrixRow row = TestRows.singleNode(8192, 1024, 64);
    ServeJob job = ServePresets.of(row).baseUrl(BASE).build();
    assertThat(job.model()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(job.randomInputLen()).isEqualTo(8192);
    assertThat(job.randomOutputLen()).isEqualTo(1024);
    assertThat(job.maxConcurrency()).isEqualTo(OptionalInt.of(64));
    assertThat(job.numPrompts()).isEqualTo(640);
    assertThat(job.numWarmups()).isEqualTo(128);
    assertThat(job.randomRangeRatio()).isEqualTo(0.8);
    assertThat(job.body().ignoreEos()).isTrue();
  }

  @Test
  void multiNodeRowsNameTheirConcurrency() {
    MatrixRow row = SharedCorpus.allMatrixRows().stream().map(TestRows::of)
        .filter(r -> r instanceof MatrixRow.MultiNode && r.conc().size() > 1).findFirst().orElseThrow();
    assertThatThrownBy(() -> ServePresets.of(row)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ServePresets.of(row, conc)");
    int conc = row.conc().get(1);
    ServeJob job = ServePresets.of(row, conc).baseUrl(BASE).build();
    assertThat(job.maxConcurrency()).isEqualTo(OptionalInt.of(conc));
    assertThat(job.numPrompts()).isEqualTo(10 * conc);
    assertThat(job.randomInputLen()).isEqualTo(((MatrixRow.FixedSeqLen) row).isl());
    int absent = row.conc().stream().mapToInt(Integer::intValue).max().getAsInt() + 1;
    assertThatThrownBy(() -> ServePresets.of(row, absent)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not " + absent);
  }

  @Test
  void agenticRowsHaveNoServePreset() {
    MatrixRow row = SharedCorpus.allMatrixRows().stream().map(TestRows::of)
        .filter(MatrixRow::agentic).findFirst().orElseThrow();
    assertThatThrownBy(() -> ServePresets.of(row)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("AgentX");
  }
}
