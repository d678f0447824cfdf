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
    assertThat(new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "CONC", "1_000", "MODEL", "m", "FRAMEWORK", "vllm", "TP", "1")).head().fields()
        .get("conc").intValue()).isEqualTo(1000);
    assertThatThrownBy(() -> new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "CONC", "1__2", "MODEL", "m", "FRAMEWORK", "vllm", "TP", "1")).head())
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("CONC must be an integer, got '1__2'");
  }

  @Test
  void everyMissingRequiredVariableIsNamedInCheckOrder() {
    // before: model "" and conc 0 were published without a word
    assertThatThrownBy(() -> new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "FRAMEWORK", "vllm")).head())
        .isInstanceOf(InfxException.class)
        .hasMessage("Missing required environment variables: MODEL, CONC, TP");
    // an empty value is as good as none
    assertThatThrownBy(() -> new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "FRAMEWORK", "vllm",
        "MODEL", "", "CONC", "4", "TP", "8")).head())
        .hasMessage("Missing required environment variable: MODEL");
    // multi-node: the GPU count comes from the role variables, not TP
    assertThatThrownBy(() -> new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "FRAMEWORK", "vllm",
        "MODEL", "m", "CONC", "4", "IS_MULTINODE", "true", "PREFILL_NUM_WORKERS", "1", "PREFILL_TP", "4")).head())
        .hasMessage("Missing required environment variables: DECODE_NUM_WORKERS, DECODE_TP");
  }

  @Test
  void concMustBeAPositiveNumberOfUsers() {
    assertThatThrownBy(() -> new AgenticIdentity(Map.of("KV_OFFLOADING", "none", "FRAMEWORK", "vllm",
        "MODEL", "m", "CONC", "0", "TP", "1")).head())
        .hasMessage("CONC must be a positive integer (the run's users), got '0'");
  }
}
