package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import io.infx.core.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceSourcesTest {

  @TempDir Path tmp;

  @Test
  void defaultCorpusFollowsTheModelFamily() {
    assertThat(TraceSources.defaultLoader("dsv4")).isEqualTo("semianalysis_cc_traces_weka_062126");
    assertThat(TraceSources.defaultLoader("kimik3.1")).isEqualTo("semianalysis_cc_traces_weka_062126");
    assertThat(TraceSources.defaultLoader("gptoss")).isEqualTo("semianalysis_cc_traces_weka_062126_256k");
    assertThat(TraceSources.defaultLoader(null)).isEqualTo("semianalysis_cc_traces_weka_062126_256k");
  }

  @Test
  void loaderNamesAreReadFromTheLocalHuggingFaceCacheOnly() throws Exception {
    Map<String, String> env = Map.of("HF_HUB_CACHE", tmp.toString());
    assertThatThrownBy(() -> TraceSources.load("semianalysis_cc_traces_weka_062126_256k", env))
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("hf download --repo-type dataset semianalysisai/cc-traces-weka-062126-256k");
    Path repo = tmp.resolve("datasets--semianalysisai--cc-traces-weka-062126-256k");
    Path snap = repo.resolve("snapshots/abc123");
    Files.createDirectories(snap);
    Files.createDirectories(repo.resolve("refs"));
    Files.writeString(repo.resolve("refs/main"), "abc123");
    Files.writeString(snap.resolve("traces.jsonl"), WekaTracesTest.DEMO.replace("\n", " ") + "\n");
    TraceSources.Corpus c = TraceSources.load("semianalysis_cc_traces_weka_062126_256k", env);
    assertThat(c.traces()).extracting(WekaTrace::id).containsExactly("demo-1");
    assertThat(TraceSources.load("semianalysisai/cc-traces-weka-062126-256k", env).traces()).hasSize(1);
  }

  @Test
  void syntheticAndPathsAndErrors() throws Exception {
    assertThat(TraceSources.load("synthetic:traces=3,turns=4", Map.of()).traces()).hasSize(3);
    Path f = tmp.resolve("t.json");
    Files.writeString(f, WekaTracesTest.DEMO);
    assertThat(TraceSources.load(f.toString(), Map.of()).traces()).hasSize(1);
    assertThatThrownBy(() -> TraceSources.load("nope", Map.of())).hasMessageContaining("unknown trace source 'nope'");
    assertThatThrownBy(() -> TraceSources.load("synthetic:turns=1", Map.of())).isInstanceOf(UsageException.class);
  }
}
