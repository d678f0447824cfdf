package io.infx.store;

import java.time.Instant;

/**
 * One GPU's reading at one instant ({@code gpu_metric_samples}); a field is null when the collector
 * did not report it. Units: W, °C, MHz, percent (0–100), J (cumulative energy counter), mV.
 */
public record GpuMetricSample(int gpuIndex, Instant sampledAt, Double powerW, Double temperatureC, Double smClockMhz,
    Double memClockMhz, Double gpuUtilPct, Double memUtilPct, Double edgeTempC, Double memTempC, Double gfxVoltageMv,
    Double socVoltageMv, Double memVoltageMv, Double fclkMhz, Double socclkMhz, Double mmActivityPct, Double energyJ) {}
