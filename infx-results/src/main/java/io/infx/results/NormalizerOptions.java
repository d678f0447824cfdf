package io.infx.results;

import io.infx.core.InfxStyle;
import org.immutables.value.Value;

/**
 * Switches between the reference normalizer ({@code utils/process_result.py}, the default, which
 * the conformance corpus encodes) and the guards of the newer upstream normalizer
 * ({@code infx/results/fixed_sequence.py}). Build with {@link #builder()} or start from a preset:
 * {@code NormalizerOptions.reference().withMetricGuards(true)}.
 */
@Value.Immutable
@InfxStyle
public abstract class NormalizerOptions {

  /**
   * Newer upstream metric guards: the ms rule only converts finite values and the TPOT rule only
   * finite values > 0, so a zero TPOT yields no {@code *_intvty} key instead of the reference's
   * division-by-zero failure, and a non-finite value is skipped instead of refused.
   */
  @Value.Default
  public boolean metricGuards() {
    return false;
  }

  /**
   * Newer upstream {@code benchmark_outcome} check: when the raw result carries one, it is
   * recomputed from {@code requested}/{@code completed} (5 % failure gate), must equal the stored
   * object and the raw {@code completed}/{@code num_prompts}, and is published right after
   * {@code osl}. A {@code failed} outcome makes the process exit status 1 (the aggregate is still
   * written).
   */
  @Value.Default
  public boolean checkBenchmarkOutcome() {
    return false;
  }

  /**
   * Refuse a raw result in which no output token was generated ({@code total_output_tokens} is 0,
   * or, without that key, {@code output_throughput} is 0) with {@code invalid_raw_value}, writing
   * nothing. Such a run has no decode to measure — every request "completed" with an empty answer
   * (a server that returned nothing, or a client that counted nothing) — yet its request-count
   * outcome says {@code passed}, and with {@link #metricGuards()} its zero TPOT no longer stops
   * it. infx's own guard, not the reference's: the reference fails such a result only by
   * accident, dividing by the zero TPOT (corpus case 032).
   */
  @Value.Default
  public boolean requireOutputTokens() {
    return false;
  }

  /**
   * Read {@code AGGREGATE_GPUS} from the environment (newer upstream): a positive value with
   * {@code PREFILL_GPUS = DECODE_GPUS = 0} marks a multi-node aggregate point.
   */
  @Value.Default
  public boolean readAggregateGpus() {
    return false;
  }

  /** Which results carry the power fields. */
  @Value.Default
  public PowerFieldsMode powerFields() {
    return PowerFieldsMode.ALWAYS;
  }

  /** When the aggregate gets {@code power_metric_schema_version} / {@code power_valid}. */
  public enum PowerFieldsMode {
    /** Every result, as the reference (without telemetry: {@code "power_valid": 0}). */
    ALWAYS,
    /** Multi-node results only; single-node results publish no power fields (newer upstream). */
    MULTI_NODE_ONLY,
    /** No power stage at all (no power fields, no validation sidecar). */
    NONE
  }

  public static ImmutableNormalizerOptions.Builder builder() {
    return ImmutableNormalizerOptions.builder();
  }

  /** The reference behaviour, exactly as the conformance corpus expects it. */
  public static ImmutableNormalizerOptions reference() {
    return builder().build();
  }

  /** Every guard of the newer upstream normalizer switched on, and infx's {@link #requireOutputTokens()}. */
  public static ImmutableNormalizerOptions upstreamGuards() {
    return builder()
        .metricGuards(true)
        .checkBenchmarkOutcome(true)
        .readAggregateGpus(true)
        .requireOutputTokens(true)
        .powerFields(PowerFieldsMode.MULTI_NODE_ONLY)
        .build();
  }
}
