package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.client.load.ClosedLoop;
import io.infx.client.load.OpenLoop;
import io.infx.core.UsageException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The parts of {@code infx bench serve} that need no server: the {@link ServeJob} specification's
 * flag checks, load model, workload block and result file name, and {@link ServeRunner}'s failure
 * gate. The end-to-end runs are in the simulator tests.
 */
class ServeJobSpecTest {

  private static ImmutableServeJob.Builder job() {
    return ServeJob.builder().backend(ServingBackend.VLLM).model("meta-llama/Llama-3.1-8B").port(9);
  }

  @Test
  void flagChecksComeBeforeAnyTrafficInTheCommandsOrder() {
    // --num-prompts is judged first even when the rate is wrong too
    assertThatThrownBy(() -> job().numPrompts(0).requestRate(-1).build().checkedLoad())
        .isInstanceOf(UsageException.class).hasMessage("numPrompts must be ≥ 1, got 0");
    assertThatThrownBy(() -> job().requestRate(-1).dsv4(true).build().checkedLoad())
        .isInstanceOf(UsageException.class).hasMessageStartingWith("requestRate must be > 0 or inf");
    assertThatThrownBy(() -> job().burstiness(0).build().checkedLoad())
        .isInstanceOf(UsageException.class).hasMessageStartingWith("burstiness must be a finite number > 0");
    assertThatThrownBy(() -> job().dsv4(true).build().checkedLoad())
        .isInstanceOf(UsageException.class).hasMessage("dsv4 requires useChatTemplate to be set.");
    assertThatThrownBy(() -> job().saveResult(true).resultFilename("..").build().checkedLoad())
        .isInstanceOf(UsageException.class).hasMessage("resultFilename '..' is '..', which names a directory");
    // the file name is only judged when the result is saved
    assertThat(job().resultFilename("..").build().checkedLoad()).isNotNull();
  }

  @Test
  void theLoadModelFollowsRateBurstinessAndConcurrency() {
    assertThat(job().numPrompts(50).build().checkedLoad()).isEqualTo(new ClosedLoop(50));
    assertThat(job().maxConcurrency(8).build().checkedLoad()).isEqualTo(new ClosedLoop(8));
    assertThat(job().requestRate(4).burstiness(0.5).build().checkedLoad())
        .isEqualTo(new OpenLoop(4, OpenLoop.Arrivals.GAMMA, 0.5, OptionalInt.empty()));
    assertThat(job().requestRate(4).constantArrivals(true).maxConcurrency(2).build().checkedLoad())
        .isEqualTo(new OpenLoop(4, OpenLoop.Arrivals.CONSTANT, 1.0, OptionalInt.of(2)));
  }

  @Test
  void theDefaultResultNameIsTheReferencesAndAGivenNameWins() {
    LocalDateTime at = LocalDateTime.of(2026, 3, 4, 5, 6, 7);
    // benchmark_serving: f"{backend}-{request_rate}qps{-concurrencyN}-{model basename}-{%Y%m%d-%H%M%S}.json"
    assertThat(job().maxConcurrency(8).build().resultFile(at))
        .isEqualTo(Path.of("vllm-infqps-concurrency8-Llama-3.1-8B-20260304-050607.json"));
    assertThat(job().requestRate(4).resultDir(Path.of("out")).build().resultFile(at))
        .isEqualTo(Path.of("out", "vllm-4.0qps-Llama-3.1-8B-20260304-050607.json"));
    assertThat(job().resultDir(Path.of("out")).resultFilename("r.json").build().resultFile(at))
        .isEqualTo(Path.of("out", "r.json"));
  }

  @Test
  void theWorkloadBlockNamesTheDatasetsFlags() {
    assertThat(job().randomInputLen(100).randomOutputLen(10).seed(3).build().workload(null, "builtin"))
        .containsExactly(
            java.util.Map.entry("dataset", "random"), java.util.Map.entry("random_input_len", 100),
            java.util.Map.entry("random_output_len", 10), java.util.Map.entry("random_range_ratio", 1.0),
            java.util.Map.entry("random_prefix_len", 0), java.util.Map.entry("seed", 3L),
            java.util.Map.entry("tokenizer", "builtin"),
            java.util.Map.entry("token_count_note", "input_lens from the client tokenizer; output from usage"));
    assertThat(job().datasetName("jsonl").datasetPath(Path.of("p.jsonl")).build().workload("chatml", "t"))
        .containsEntry("dataset_path", "p.jsonl").containsEntry("chat_template", "chatml")
        .doesNotContainKey("random_input_len");
  }

  @Test
  void theGateFailsAboveFivePercentFailedThenOnInputLengths() {
    InputLengthCheck ok = InputLengthCheck.judge(ServingBackend.Api.COMPLETIONS, new int[] {100}, new int[] {100});
    assertThat(ServeRunner.gate(96, 100, ok)).isEmpty();
    assertThat(ServeRunner.gate(94, 100, ok))
        .contains("FAIL: request failure rate 6.0% exceeds 5% threshold (94/100 completed)");
    // the reference's formula, 1 - completed / requested > 0.05, in binary floating point: exactly
    // 5 % failed is 0.050000000000000044 in Python too, so 95/100 fails there and here
    assertThat(ServeRunner.gate(95, 100, ok))
        .contains("FAIL: request failure rate 5.0% exceeds 5% threshold (95/100 completed)");
    InputLengthCheck off = InputLengthCheck.judge(ServingBackend.Api.COMPLETIONS, new int[] {100}, new int[] {150});
    assertThat(off.verdict()).isEqualTo(InputLengthCheck.Verdict.FAIL);
    assertThat(ServeRunner.gate(100, 100, off)).map(g -> g.startsWith("FAIL: input lengths: ")
        && g.endsWith("(threshold 10%)")).contains(true);
    // a failed run is reported as such before its input lengths
    assertThat(ServeRunner.gate(0, 100, off)).map(g -> g.contains("failure rate 100.0%")).contains(true);
  }
}
