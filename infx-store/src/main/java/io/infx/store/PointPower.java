package io.infx.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The power and energy of a point, read from its metrics (the reference's power keys, published
 * only for a valid measurement: {@code power_valid = 1}): what the power view charts against
 * interactivity.
 *
 * @param avgPowerW mean power per GPU over the measured window, W ({@code avg_power_w})
 * @param p75PowerW 75th percentile of the per-GPU power samples in the window, W ({@code p75_power_w})
 * @param p90PowerW 90th percentile, W ({@code p90_power_w})
 * @param totalGpuEnergyJ energy of every GPU over the window, J ({@code total_gpu_energy_j})
 * @param joulesPerOutputToken J per output token ({@code joules_per_output_token})
 * @param joulesPerRequest J per successful request ({@code joules_per_successful_query})
 */
public record PointPower(double avgPowerW, OptionalDouble p75PowerW, OptionalDouble p90PowerW, double totalGpuEnergyJ,
    double joulesPerOutputToken, OptionalDouble joulesPerRequest) {

  /** Output tokens per joule: {@code 1 / joules_per_output_token} (tokens/J). */
  public double tokensPerJoule() {
    return io.infx.results.PowerFields.tokensPerJoule(joulesPerOutputToken);
  }

  /** The point's power, when its metrics carry a valid measurement. */
  public static Optional<PointPower> of(JsonNode metrics) {
    if (metrics == null || metrics.path("power_valid").asInt(0) != 1) {
      return Optional.empty();
    }
    OptionalDouble avg = num(metrics, "avg_power_w");
    OptionalDouble energy = num(metrics, "total_gpu_energy_j");
    OptionalDouble perToken = num(metrics, "joules_per_output_token");
    if (avg.isEmpty() || energy.isEmpty() || perToken.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new PointPower(avg.getAsDouble(), num(metrics, "p75_power_w"), num(metrics, "p90_power_w"),
        energy.getAsDouble(), perToken.getAsDouble(), num(metrics, "joules_per_successful_query")));
  }

  private static OptionalDouble num(JsonNode m, String k) {
    JsonNode v = m.get(k);
    return v != null && v.isNumber() && Double.isFinite(v.doubleValue()) ? OptionalDouble.of(v.doubleValue())
        : OptionalDouble.empty();
  }
}
