package io.infx.core.provenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.json.Json;
import org.junit.jupiter.api.Test;

class ServerProvenanceTest {

  @Test
  void enginesAreNamedOneWayWhicheverWayTheServerSpellsThem() {
    assertThat(ServerProvenance.canonicalEngine("llamacpp")).isEqualTo("llama.cpp");   // owned_by
    assertThat(ServerProvenance.canonicalEngine("llama.cpp")).isEqualTo("llama.cpp");  // Server header
    assertThat(ServerProvenance.canonicalEngine("tensorrt_llm")).isEqualTo("tensorrt-llm");
    assertThat(ServerProvenance.canonicalEngine("VLLM")).isEqualTo("vllm");
    assertThat(ServerProvenance.canonicalEngine("  ")).isEqualTo(ServerProvenance.UNKNOWN);
    assertThat(ServerProvenance.canonicalEngine("my-server")).isEqualTo("my-server");
  }

  @Test
  void simulatedIsDerivedFromTheEngineAndCannotBeClaimedOtherwise() {
    assertThat(ServerProvenance.of("infx-sim", "dev", "x").simulated()).isTrue();
    assertThat(ServerProvenance.of("vllm", "0.10.1", "x").simulated()).isFalse();
    assertThat(ServerProvenance.of(null, null, "none").simulated()).isFalse();
    assertThatThrownBy(() -> new ServerProvenance("vllm", "", true, "x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("infx-sim");
    assertThatThrownBy(() -> new ServerProvenance("infx-sim", "", false, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void jsonRoundTripAndContradictionsRefused() throws Exception {
    ServerProvenance p = ServerProvenance.of("sglang", "0.5.2", "GET /version");
    assertThat(ServerProvenance.fromJson(p.toJson())).contains(p);
    assertThat(ServerProvenance.fromJson(null)).isEmpty();
    assertThat(ServerProvenance.fromJson(Json.mapper().readTree("[1]"))).isEmpty();
    assertThatThrownBy(() -> ServerProvenance.fromJson(Json.mapper().readTree(
        "{\"engine\":\"sglang\",\"simulated\":true}"))).isInstanceOf(IllegalArgumentException.class);
    assertThat(ServerProvenance.simulator("dev").label()).isEqualTo("infx-sim dev (SIMULATED)");
    assertThat(p.label()).isEqualTo("sglang 0.5.2");
  }
}
