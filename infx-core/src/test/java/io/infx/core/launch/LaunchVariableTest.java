package io.infx.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The launch-variable parse rules, tested once here for every reader. */
class LaunchVariableTest {

  @Test
  void integersFollowPythonInt() {
    // Python 3.11: int(' 1_000 ') == 1000, int('+7') == 7, int('-3') == -3
    assertThat(LaunchVariable.parseInt(" 1_000 ").value()).contains(1000);
    assertThat(LaunchVariable.parseInt("+7").value()).contains(7);
    assertThat(LaunchVariable.parseInt("-3").value()).contains(-3);
    // ValueError in Python: int('1__2'), int('_1'), int('1_'), int(''), int('1.0'), int('0x10')
    for (String bad : new String[] {"1__2", "_1", "1_", "", "1.0", "0x10"}) {
      assertThat(LaunchVariable.parseInt(bad).ok()).as(bad).isFalse();
    }
    assertThat(LaunchVariable.parseInt("1__2").problem())
        .isEqualTo("invalid literal for int() with base 10: '1__2'");
  }

  @Test
  void booleansFollowTheReaderOfTheReference() {
    assertThat(LaunchVariable.isTrue("True")).isTrue();
    assertThat(LaunchVariable.isTrue("TRUE")).isTrue();
    assertThat(LaunchVariable.isTrue("1")).isFalse();
    assertThat(LaunchVariable.isTrue(null)).isFalse();
    assertThat(LaunchVariable.isFlagOn("On")).isTrue();
    assertThat(LaunchVariable.isFlagOn("yes")).isTrue();
    assertThat(LaunchVariable.isFlagOn("1")).isTrue();
    assertThat(LaunchVariable.isFlagOn("")).isFalse();
    assertThat(LaunchVariable.isFlagOn("false")).isFalse();
  }

  @Test
  void readersTakeValuesFromAnEnvironmentWithTheRules() {
    Map<String, String> env = Map.of("TP", " 1_6 ", "EP_SIZE", "", "CONC", "1__2", "DP_ATTENTION", "True",
        "REQUIRE_POWER", "on", "DISAGG", "1");
    assertThat(LaunchVariable.TP.intIn(env)).hasValue(16);
    // empty counts as unset, as the shell's ${EP_SIZE:-1} does
    assertThat(LaunchVariable.EP_SIZE.intIn(env)).isEmpty();
    assertThat(LaunchVariable.EP_SIZE.in(env, "1")).isEqualTo("1");
    assertThat(LaunchVariable.PP_SIZE.in(env)).isEmpty();
    assertThatThrownBy(() -> LaunchVariable.CONC.intIn(env)).isInstanceOf(InfxException.class)
        .hasMessage("CONC must be an integer, got '1__2' (invalid literal for int() with base 10: '1__2')");
    assertThat(LaunchVariable.DP_ATTENTION.isOnIn(env)).isTrue();
    assertThat(LaunchVariable.REQUIRE_POWER.isOnIn(env)).isTrue();
    // DISAGG is read with the normalizer's rule: only "true" in any case
    assertThat(LaunchVariable.DISAGG.isOnIn(env)).isFalse();
    assertThat(LaunchVariable.IS_MULTINODE.isOnIn(env)).isFalse();
    assertThatThrownBy(() -> LaunchVariable.TP.isOnIn(env)).isInstanceOf(IllegalStateException.class);
    assertThat(LaunchVariable.secrets()).containsExactly(LaunchVariable.HF_TOKEN,
        LaunchVariable.MODAL_TOKEN_ID, LaunchVariable.MODAL_TOKEN_SECRET);
  }

  @Test
  void catalogueDeclaresEachVariableOnce() {
    assertThat(LaunchVariable.EP_SIZE.type()).isEqualTo(LaunchVariable.Type.INT);
    assertThat(LaunchVariable.EP_SIZE.rowField()).contains("/ep");
    assertThat(LaunchVariable.PP_SIZE.launcherDefault()).contains("1");
    assertThat(LaunchVariable.HF_TOKEN.secret()).isTrue();
    assertThat(Arrays.stream(LaunchVariable.values()).filter(LaunchVariable::secret))
        .containsExactly(LaunchVariable.HF_TOKEN, LaunchVariable.MODAL_TOKEN_ID, LaunchVariable.MODAL_TOKEN_SECRET);
    // the two worker sides declare the same fields, in the same order
    assertThat(LaunchVariable.role("PREFILL")).extracting(v -> v.name().substring("PREFILL_".length()))
        .containsExactlyElementsOf(LaunchVariable.role("DECODE").stream()
            .map(v -> v.name().substring("DECODE_".length())).toList());
    assertThat(LaunchVariable.role("PREFILL")).allSatisfy(v ->
        assertThat(v.rowField().orElseThrow()).startsWith("/prefill/"));
  }
}
