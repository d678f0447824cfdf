package io.infx.results;

import io.infx.core.InfxStyle;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * The power part of an aggregate (reference power stage, {@code utils/aggregate_power.py}):
 * {@code power_metric_schema_version}, {@code power_valid} (published as 1/0) and, only for a valid
 * measurement, the energy metrics — watts and joules rounded to 3 decimals, per-query and per-token
 * values to 6.
 */
@Value.Immutable
@InfxStyle
public abstract class PowerFields {

  /** The power metric schema version the reference publishes. */
  public static final int SCHEMA_VERSION = 2;

  /** Whole-deployment energy metrics, in publication order. */
  public static final List<String> METRIC_KEYS = List.of(
      "avg_power_w", "avg_total_gpu_power_w", "total_gpu_energy_j",
      "joules_per_successful_query", "joules_per_input_token", "joules_per_output_token",
      "joules_per_total_token");

  /** Additional per-role metrics of multi-node results. */
  public static final List<String> ROLE_METRIC_KEYS = List.of(
      "prefill_gpu_energy_j", "decode_gpu_energy_j", "prefill_avg_power_w",
      "decode_avg_power_w", "prefill_joules_per_input_token", "decode_joules_per_output_token");

  /**
   * Output tokens per joule — the reciprocal of {@code joules_per_output_token} (J/token), the
   * efficiency the power view plots against interactivity (InferenceX-app charts its inverse,
   * J per output token, and tokens per MW).
   *
   * @throws IllegalArgumentException when {@code joulesPerOutputToken} is not a positive finite number
   */
  public static double tokensPerJoule(double joulesPerOutputToken) {
    if (!(joulesPerOutputToken > 0) || !Double.isFinite(joulesPerOutputToken)) {
      throw new IllegalArgumentException("joules per output token must be positive and finite, got "
          + joulesPerOutputToken);
    }
    return 1.0 / joulesPerOutputToken;
  }

  @Value.Default
  public int schemaVersion() {
    return SCHEMA_VERSION;
  }

  /** Whether a complete, validated telemetry stream covered the benchmark window. */
  public abstract boolean valid();

  /** Energy metrics (W, J, J/query, J/token), empty unless {@link #valid()}. */
  public abstract Map<String, Double> metrics();

  @Value.Check
  protected void check() {
    if (!valid() && !metrics().isEmpty()) {
      throw new IllegalStateException("an invalid power measurement publishes no energy metrics");
    }
  }

  /** The fields of a result without a valid measurement: schema 2, {@code power_valid} 0. */
  public static PowerFields invalid() {
    return ImmutablePowerFields.builder().valid(false).build();
  }

  public static ImmutablePowerFields.Builder builder() {
    return ImmutablePowerFields.builder();
  }
}
