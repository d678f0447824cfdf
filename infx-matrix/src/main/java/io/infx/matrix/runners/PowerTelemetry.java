package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.immutables.value.Value;

/** Cluster power sensors ({@code srt-slurm.power-telemetry}). */
@Value.Immutable
@InfxStyle
public abstract class PowerTelemetry {

  @Min(value = 1, message = "Input should be greater than or equal to 1")
  @Max(value = 65535, message = "Input should be less than or equal to 65535")
  public abstract int dcgmPort();

  @Min(value = 1, message = "Input should be greater than or equal to 1")
  @Max(value = 65535, message = "Input should be less than or equal to 65535")
  @Value.Default
  public int cpuPort() {
    return 9405;
  }

  public abstract CpuSource cpuSource();

  /** Where CPU power readings come from. */
  public enum CpuSource {
    ACPI,
    DCGM
  }
}
