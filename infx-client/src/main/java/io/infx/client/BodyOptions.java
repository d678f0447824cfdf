package io.infx.client;

import io.infx.core.InfxStyle;
import java.util.Map;
import java.util.OptionalInt;
import org.immutables.value.Value;

/**
 * Request-body settings shared by every request of a run. Defaults reproduce the reference
 * client's bodies (client spec §3.2/§3.3): {@code temperature 0.0}, {@code best_of 1} and
 * {@code logprobs null} for completions, {@code stream true},
 * {@code stream_options.include_usage true}.
 */
@Value.Immutable
@InfxStyle
public abstract class BodyOptions {

  /** Adds {@code "ignore_eos": true} so the server generates exactly {@code max_tokens}. */
  @Value.Default
  public boolean ignoreEos() {
    return false;
  }

  /** Sampling temperature; the reference sends {@code 0.0}. */
  @Value.Default
  public double temperature() {
    return 0.0;
  }

  /** {@code best_of} for completions (reference: 1). */
  @Value.Default
  public int bestOf() {
    return 1;
  }

  /** {@code logprobs} for completions; absent means JSON {@code null}, as the reference sends. */
  public abstract OptionalInt logprobs();

  /** Asks for {@code stream_options.continuous_usage_stats} (per-chunk usage; vLLM, SGLang). */
  @Value.Default
  public boolean continuousUsageStats() {
    return false;
  }

  /**
   * Extra body fields merged last (e.g. {@code top_p}, {@code top_k}); values are written with
   * Jackson (strings, numbers, booleans, lists, maps).
   */
  public abstract Map<String, Object> extraBody();

  public static ImmutableBodyOptions.Builder builder() {
    return ImmutableBodyOptions.builder();
  }

  /** The reference defaults. */
  public static BodyOptions defaults() {
    return builder().build();
  }
}
