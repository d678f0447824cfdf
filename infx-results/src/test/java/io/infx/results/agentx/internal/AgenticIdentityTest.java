package io.infx.results.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgenticIdentityTest {

  @Test
  void integersAreReadWithPythonIntLikeTheOtherReaders() {
    // int('1_000') == 1000 in Python; int('1__2') raises
    assertThat(new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "CONC", "1_000")).head().fields()
        .get("conc").intValue()).isEqualTo(1000);
    assertThatThrownBy(() -> new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "CONC", "1__2")).head())
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("CONC must be an integer, got '1__2'");
  }
}
