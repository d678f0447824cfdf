package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientJitTest {

  @Test
  void aServerOnLoopbackGetsC2OnlyDuringTheWarmup() {
    for (String base : new String[] {"http://127.0.0.1:8000", "http://localhost:8080", "http://[::1]:9"}) {
      ClientJit.Choice c = ClientJit.choose(Optional.empty(), URI.create(base));
      assertThat(c.mode()).as(base).isEqualTo(ClientJit.Mode.TIERED_WARMUP);
      assertThat(c.reason()).contains("loopback").contains("--client-jit tiered|c1");
    }
  }

  @Test
  void aRemoteServerKeepsTieredCompilation() {
    for (String base : new String[] {"http://10.0.0.7:8000", "http://gpu-node-3:8000"}) {
      assertThat(ClientJit.choose(Optional.empty(), URI.create(base)).mode()).as(base)
          .isEqualTo(ClientJit.Mode.TIERED);
    }
  }

  @Test
  void aGivenModeWinsWhereverTheServerIs() {
    assertThat(ClientJit.choose(Optional.of(ClientJit.Mode.TIERED), URI.create("http://127.0.0.1:8000")))
        .isEqualTo(new ClientJit.Choice(ClientJit.Mode.TIERED, "given (--client-jit)"));
    assertThat(ClientJit.choose(Optional.of(ClientJit.Mode.C1), URI.create("http://10.0.0.7:8000")).mode())
        .isEqualTo(ClientJit.Mode.C1);
  }

  @Test
  void cliNamesAreLowerCase() {
    assertThat(ClientJit.Mode.TIERED.cliName()).isEqualTo("tiered");
    assertThat(ClientJit.Mode.C1.cliName()).isEqualTo("c1");
    assertThat(ClientJit.Mode.TIERED_WARMUP.cliName()).isEqualTo("tiered-warmup");
  }

  /**
   * In a JVM of its own (the directive lasts for the JVM's life): tiered-warmup adds no directive
   * when applied, adds the C2 exclusion when the warm-up is over, and keeps it (a later tiered
   * choice does not lift it).
   */
  @Test
  void tieredWarmupExcludesC2OnlyOnceTheWarmupIsOver() throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), ClientJitChild.class.getName())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("applied=tiered-warmup excluded=false")
        .contains("warm=tiered-warmup excluded=true")
        .contains("later=tiered-warmup excluded=true");
  }
}
