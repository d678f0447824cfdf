package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InputLengthCheckTest {

  @Test
  void aBosTokenOnEveryCompletionsPromptIsFramingNotAMismatch() {
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.COMPLETIONS,
        new int[] {256, 200, 300}, new int[] {257, 201, 301});
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.OK);
    assertThat(c.framingTokens()).isEqualTo(1);
    assertThat(c.medianDeviation()).isZero();
  }

  @Test
  void aChatTemplateAddsConstantTokensThatAreAccountedBeforeJudging() {
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.CHAT,
        new int[] {256, 128, 512}, new int[] {256 + 31, 128 + 31, 512 + 31});
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.OK);
    assertThat(c.framingTokens()).isEqualTo(31);
  }

  @Test
  void aMismatchedTokenizerFailsAndSaysSo() {
    // llama-server counted infx's 256-token prompts (wrong tokenizer) as ~1,300 tokens
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.COMPLETIONS,
        new int[] {256, 256, 256, 256}, new int[] {1300, 1350, 1435, 1310});
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.FAIL);
    assertThat(c.deviating()).isEqualTo(4);
    assertThat(c.medianDeviation()).isCloseTo((1310 - 256) / 256.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(c.message()).contains("tokenizer likely does not match").contains("--tokenizer");
  }

  @Test
  void disagreementsBetweenOneAndTenPercentWarn() {
    // diffs 6, 11, 1 → median 6 taken as framing; residuals 0 %, 2.5 %, 1.25 % → median 1.25 %
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.COMPLETIONS,
        new int[] {100, 200, 400}, new int[] {106, 211, 401});
    assertThat(c.framingTokens()).isEqualTo(6);
    assertThat(c.medianDeviation()).isEqualTo(0.0125);
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.WARN);
  }

  @Test
  void withoutUsageNothingIsJudged() {
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.CHAT, new int[0], new int[0]);
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.UNCHECKED);
  }
}
