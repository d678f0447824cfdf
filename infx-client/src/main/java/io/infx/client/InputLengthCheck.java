package io.infx.client;

import java.util.Arrays;
import java.util.Locale;

/**
 * Whether the server counted the prompts as long as the client meant them: every successful
 * request's {@code usage.prompt_tokens} against the client's prompt length (the requested ISL).
 *
 * <p>Rule (one home: {@link #judge}): per request {@code diff = server − client}. The median diff,
 * when it lies in {@code [0, framing allowance]}, is taken as framing the server adds to every
 * prompt — special tokens such as BOS on Completions (allowance {@value #COMPLETIONS_FRAMING}
 * tokens), or those plus the chat template on Chat (allowance {@value #CHAT_FRAMING} tokens) —
 * and subtracted. A request's deviation is {@code |diff − framing| / client} (on Chat, less
 * {@value #CHAT_EDGE_TOKENS} tokens the message's edges may merge with the template). The run's
 * deviation is the median over requests: above {@value #WARN_DEVIATION} (1 %) the run warns,
 * above {@value #FAIL_DEVIATION} (10 %) it fails like the failure gate, naming the likely cause:
 * a tokenizer that does not match the server's. Requests without usage are not judged.
 *
 * <p>When the framing is known — measured at start-up on the server itself by
 * {@link PromptFramingProbe} (its {@code /tokenize}, {@code /apply-template}) — it is used as
 * measured instead of being inferred from the median, whatever its size: a chat template with a
 * long default system prompt then neither hides a tokenizer mismatch nor raises a false alarm.
 */
public final class InputLengthCheck {

  /** Most framing tokens (BOS/EOS and the like) accepted on Completions. */
  public static final int COMPLETIONS_FRAMING = 8;
  /** Most framing tokens (special tokens plus the chat template) accepted on Chat. */
  public static final int CHAT_FRAMING = 512;
  /**
   * Tokens a chat message may gain or lose against its own count where it meets the template
   * (its first and last words can merge with the text around them: up to 2 at each edge),
   * forgiven per request on Chat before the deviation is taken. Seen on llama-server's template:
   * 1–2 tokens per request, which at an ISL of 64 would otherwise read as a 3 % mismatch.
   */
  public static final int CHAT_EDGE_TOKENS = 4;
  /** Median relative deviation above which the run warns. */
  public static final double WARN_DEVIATION = 0.01;
  /** Median relative deviation above which the run fails. */
  public static final double FAIL_DEVIATION = 0.10;

  /** The outcome of the check. */
  public enum Verdict { UNCHECKED, OK, WARN, FAIL }

  private final int compared;
  private final int framingTokens;
  private final boolean framingMeasured;
  private final double medianDeviation;
  private final double maxDeviation;
  private final int deviating;
  private final Verdict verdict;
  private final String message;

  private InputLengthCheck(int compared, int framingTokens, boolean framingMeasured,
      double medianDeviation, double maxDeviation, int deviating, Verdict verdict,
      String message) {
    this.compared = compared;
    this.framingTokens = framingTokens;
    this.framingMeasured = framingMeasured;
    this.medianDeviation = medianDeviation;
    this.maxDeviation = maxDeviation;
    this.deviating = deviating;
    this.verdict = verdict;
    this.message = message;
  }

  /**
   * Judges the requests' lengths.
   *
   * @param api the API used (fixes the framing allowance)
   * @param client the client's prompt lengths (tokens), one per request with usage
   * @param server the server's {@code usage.prompt_tokens}, aligned with {@code client}
   */
  public static InputLengthCheck judge(ServingBackend.Api api, int[] client, int[] server) {
    return judge(api, client, server, java.util.OptionalInt.empty());
  }

  /**
   * Judges the requests' lengths against a framing measured on the server.
   *
   * @param api the API used (fixes the framing allowance when the framing is not known)
   * @param client the client's prompt lengths (tokens), one per request with usage
   * @param server the server's {@code usage.prompt_tokens}, aligned with {@code client}
   * @param knownFraming tokens the server counts on top of every client length, when measured
   */
  public static InputLengthCheck judge(ServingBackend.Api api, int[] client, int[] server,
      java.util.OptionalInt knownFraming) {
    int n = client.length;
    if (n == 0) {
      return new InputLengthCheck(0, 0, false, 0, 0, 0, Verdict.UNCHECKED,
          "the server reported no usage.prompt_tokens: input lengths not checked");
    }
    int[] diff = new int[n];
    for (int i = 0; i < n; i++) {
      diff[i] = server[i] - client[i];
    }
    int[] sorted = diff.clone();
    Arrays.sort(sorted);
    int median = sorted[(n - 1) / 2];
    int allowance = api == ServingBackend.Api.CHAT ? CHAT_FRAMING : COMPLETIONS_FRAMING;
    int framing = knownFraming.isPresent() ? knownFraming.getAsInt()
        : median >= 0 && median <= allowance ? median : 0;
    int edge = api == ServingBackend.Api.CHAT ? CHAT_EDGE_TOKENS : 0;
    double[] dev = new double[n];
    int deviating = 0;
    for (int i = 0; i < n; i++) {
      dev[i] = Math.max(0, Math.abs(diff[i] - framing) - edge) / (double) Math.max(1, client[i]);
      if (dev[i] > WARN_DEVIATION) {
        deviating++;
      }
    }
    Arrays.sort(dev);
    double med = dev[(n - 1) / 2];
    double max = dev[n - 1];
    Verdict v = med > FAIL_DEVIATION ? Verdict.FAIL : med > WARN_DEVIATION ? Verdict.WARN
        : Verdict.OK;
    String msg;
    if (v == Verdict.OK) {
      msg = String.format(Locale.ROOT, "server prompt_tokens agree with the client's%s (%d requests)",
          framing != 0 ? " plus " + framing + " framing token(s)"
              + (knownFraming.isPresent() ? " measured on the server" : "") : "", n);
    } else {
      msg = String.format(Locale.ROOT, "the server counted the prompts %.1f%% %s than the client"
          + " (median over %d requests, %d off by more than 1%%; e.g. client %d vs server %d"
          + " tokens): the client tokenizer likely does not match the server's model — pass the"
          + " model's tokenizer with --tokenizer", med * 100,
          median - framing >= 0 ? "longer" : "shorter", n, deviating, client[0], server[0]);
    }
    return new InputLengthCheck(n, framing, knownFraming.isPresent(), med, max, deviating, v, msg);
  }

  /** Requests judged (successful ones with {@code usage.prompt_tokens}). */
  public int compared() {
    return compared;
  }

  /** Tokens the server adds to every prompt (special tokens, chat template), subtracted first. */
  public int framingTokens() {
    return framingTokens;
  }

  /** True when the framing was measured on the server rather than inferred from the median. */
  public boolean framingMeasured() {
    return framingMeasured;
  }

  /** Median relative deviation (fraction) after framing. */
  public double medianDeviation() {
    return medianDeviation;
  }

  /** Largest relative deviation (fraction) after framing. */
  public double maxDeviation() {
    return maxDeviation;
  }

  /** Requests off by more than 1 % after framing. */
  public int deviating() {
    return deviating;
  }

  public Verdict verdict() {
    return verdict;
  }

  /** One line for the console, naming the likely cause when the lengths disagree. */
  public String message() {
    return message;
  }

  @Override
  public String toString() {
    return "InputLengthCheck{" + verdict + ": " + message + "}";
  }
}
