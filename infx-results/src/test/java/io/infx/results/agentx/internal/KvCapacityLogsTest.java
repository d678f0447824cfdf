package io.infx.results.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvCapacityLogsTest {

  @TempDir Path tmp;

  @Test
  void vllmLastValuePerEngineTagAndBareLinesOnlyWithoutTags() {
    String tagged = String.join("\n",
        "INFO GPU KV cache size: 111 tokens",
        "INFO (EngineCore_DP0 pid=100) GPU KV cache size: 2,000,000 tokens",
        "INFO (EngineCore_DP1 pid=101) GPU KV cache size: 2,100,000 tokens",
        "INFO (EngineCore_DP0 pid=100) GPU KV cache size: 2,050,000 tokens");
    assertThat(KvCapacityLogs.vllmFromText(tagged)).isEqualTo(4_150_000L);
    assertThat(KvCapacityLogs.vllmFromText("GPU KV cache size: 10 tokens\nGPU KV cache size: 5 tokens"))
        .isEqualTo(15L);
    assertThat(KvCapacityLogs.vllmFromText("GPU KV cache size: 0 tokens")).isNull();
    assertThat(KvCapacityLogs.vllmFromText("nothing here")).isNull();
  }

  @Test
  void sglangMultipliesASingleRankByDpSize() {
    // spec §7 #13
    String log = "server_args=ServerArgs(tp_size=8, dp_size=4)\n"
        + "[DP0 TP0 EP0] max_total_num_tokens=1000000, chunked_prefill_size=8192";
    assertThat(KvCapacityLogs.sglangFromText(log)).isEqualTo(4_000_000L);
    String two = "dp_size=2\n[DP0 TP0 EP0] max_total_num_tokens=10\n[DP1 TP0 EP0] max_total_num_tokens=12";
    assertThat(KvCapacityLogs.sglangFromText(two)).isEqualTo(22L);
    assertThat(KvCapacityLogs.sglangFromText("dp_size=3\nmax_total_num_tokens=7")).isEqualTo(21L);
    assertThat(KvCapacityLogs.sglangFromText("max_total_num_tokens=7\nmax_total_num_tokens=8")).isEqualTo(15L);
  }

  @Test
  void discoversServerLogThenWatchtowerFilesInThreeParents() throws Exception {
    Path result = tmp.resolve("p3/p2/p1/results");
    Files.createDirectories(result);
    Files.writeString(result.resolve("server.log"), "x");
    Files.writeString(result.resolve("watchtower-b.out"), "x");
    Files.writeString(result.resolve("watchtower-a.out"), "x");
    Files.writeString(tmp.resolve("p3/p2/watchtower-c.out"), "x");
    Files.writeString(tmp.resolve("p3/watchtower-d.out"), "x");
    Files.writeString(tmp.resolve("watchtower-too-far.out"), "x");
    List<Path> found = KvCapacityLogs.discover(result);
    assertThat(found).extracting(p -> p.getFileName().toString())
        .containsExactly("server.log", "watchtower-a.out", "watchtower-b.out", "watchtower-c.out",
            "watchtower-d.out");
  }

  @Test
  void pythonParentsOfARelativePathEndAtDot() {
    assertThat(KvCapacityLogs.pythonParents(Path.of("results"), 3)).containsExactly(Path.of("."));
    assertThat(KvCapacityLogs.pythonParents(Path.of("a/b/c/d"), 3))
        .containsExactly(Path.of("a/b/c"), Path.of("a/b"), Path.of("a"));
    assertThat(KvCapacityLogs.pythonParents(Path.of("/x/y"), 3)).containsExactly(Path.of("/x"), Path.of("/"));
  }
}
