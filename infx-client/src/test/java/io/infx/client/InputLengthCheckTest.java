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

  @Test
  void aMeasuredFramingIsUsedAsMeasuredEvenPastTheAllowance() {
    // a template with a long default system prompt: 600 tokens, beyond the 512 that is inferred
    int[] client = {256, 128, 512};
    int[] server = {256 + 600, 128 + 600, 512 + 600};
    assertThat(InputLengthCheck.judge(ServingBackend.Api.CHAT, client, server).verdict())
        .as("inferred: 600 is past the allowance, so the template reads as a mismatch")
        .isEqualTo(InputLengthCheck.Verdict.FAIL);
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.CHAT, client, server,
        java.util.OptionalInt.of(600));
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.OK);
    assertThat(c.framingTokens()).isEqualTo(600);
    assertThat(c.framingMeasured()).isTrue();
    assertThat(c.message()).contains("measured on the server");
  }

  @Test
  void aMeasuredFramingStillLetsATokenizerMismatchFail() {
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.CHAT, new int[] {256, 256, 256},
        new int[] {1300 + 28, 1350 + 28, 1435 + 28}, java.util.OptionalInt.of(28));
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.FAIL);
  }

  @Test
  void chatMessagesMayGainOrLoseAFewTokensAtTheTemplateEdges() {
    // ISL 64 behind a 28-token template, counted 1-2 tokens off where the message meets it
    int[] client = {64, 64, 64, 64};
    int[] server = {64 + 28 + 2, 64 + 28 - 1, 64 + 28 + 1, 64 + 28 + 2};
    InputLengthCheck c = InputLengthCheck.judge(ServingBackend.Api.CHAT, client, server,
        java.util.OptionalInt.of(28));
    assertThat(c.verdict()).isEqualTo(InputLengthCheck.Verdict.OK);
    assertThat(c.medianDeviation()).isZero();
    // on Completions the prompt has no edges: the same 2 tokens are a 3 % disagreement
    InputLengthCheck k = InputLengthCheck.judge(ServingBackend.Api.COMPLETIONS, client,
        new int[] {66, 66, 66, 66}, java.util.OptionalInt.of(0));
    assertThat(k.medianDeviation()).isEqualTo(2 / 64.0);
    assertThat(k.verdict()).isEqualTo(InputLengthCheck.Verdict.WARN);
  }
}
