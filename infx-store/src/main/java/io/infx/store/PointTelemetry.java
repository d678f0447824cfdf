package io.infx.store;

import java.util.List;

/**
 * The telemetry stored with one benchmark point: its GPU series (with their digests), its server
 * {@code /metrics} series and the telemetry flags of its row. Empty lists when none was recorded.
 *
 * @param benchmarkResultId the point ({@link LatestPoint#id()})
 * @param gpuSeries GPU series linked to it
 * @param serverSeries its server series
 * @param flags telemetry flags of the row (e.g. {@code server_count_mismatch}), empty when none
 */
public record PointTelemetry(long benchmarkResultId, List<GpuMetricSeries> gpuSeries,
    List<ServerMetricSeries> serverSeries, List<String> flags) {

  public PointTelemetry {
    gpuSeries = List.copyOf(gpuSeries);
    serverSeries = List.copyOf(serverSeries);
    flags = List.copyOf(flags);
  }
}
