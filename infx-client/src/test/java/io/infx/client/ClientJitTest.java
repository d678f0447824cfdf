package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientJitTest {

  @Test
  void aServerOnLoopbackGetsC1Only() {
    for (String base : new String[] {"http://127.0.0.1:8000", "http://localhost:8080", "http://[::1]:9"}) {
      ClientJit.Choice c = ClientJit.choose(Optional.empty(), URI.create(base));
      assertThat(c.mode()).as(base).isEqualTo(ClientJit.Mode.C1);
      assertThat(c.reason()).contains("loopback").contains("--client-jit tiered");
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
  }
}
