package io.infx.store.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.store.mapping.GpuMetricsCsv;
import io.infx.store.mapping.SkipTracker;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Writes the telemetry of one ingested run (migration V3): GPU series, samples, the per-GPU digest
 * and the point links in InferenceX-app's shape ({@code gpu-metrics-ingest.ts}: a series is keyed
 * by (run, artifact, file); an unchanged CSV is not rewritten, only relinked; a changed one
 * replaces its samples and digest), and the server {@code /metrics} series of infx points. A file
 * that holds no usable sample is counted as {@code telemetryError} (non-fatal, as the reference's
 * skip tracker does) and nothing of it is written.
 */
final class TelemetryIngest {

  /** The digest algorithm's version ({@code stats_version}); 0 means computed by something else. */
  static final int STATS_VERSION = 1;

  private TelemetryIngest() {}

  /** What was written: series (new or replaced) and samples inserted. */
  record Written(long series, long samples) {}

  /**
   * The artifact suffix of a benchmark row's file ({@code bmk_<suffix>/…}, {@code bmk_agentic_<suffix>/…},
   * {@code bmk/bmk_<suffix>/…}); empty for files outside such a directory ({@code results_bmk/agg_bmk.json}).
   */
  static Optional<String> suffixOf(String file) {
    for (String segment : file.replace('\\', '/').split("/")) {
      if (segment.startsWith("bmk_agentic_")) {
        return Optional.of(segment.substring("bmk_agentic_".length()));
      }
      if (segment.startsWith("bmk_")) {
        return Optional.of(segment.substring("bmk_".length()));
      }
    }
    return Optional.empty();
  }

  static Written writeGpu(Handle h, long runDbId, List<RunArtifacts.GpuMetricsInput> inputs,
      Map<String, List<Long>> pointsBySuffix, SkipTracker tracker) throws JsonProcessingException {
    long series = 0;
    long samples = 0;
    for (RunArtifacts.GpuMetricsInput in : inputs) {
      int offset = GpuMetricsCsv.utcOffsetMinutes(in.context());
      Optional<GpuMetricsCsv.Parsed> parsed = GpuMetricsCsv.parse(in.text(), offset);
      List<GpuMetricsCsv.Sample> rows = parsed.map(p -> GpuMetricsCsv.distinct(p.samples())).orElse(List.of());
      Optional<GpuMetricsCsv.SeriesSummary> summary = GpuMetricsCsv.summarize(rows);
      if (parsed.isEmpty() || summary.isEmpty()) {
        tracker.recordTelemetryError(in.artifactName() + "/" + in.fileName(), parsed.isEmpty()
            ? "neither an nvidia-smi nor an amd-smi CSV header" : "no sample with a timestamp, a GPU index and power");
        continue;
      }
      GpuMetricsCsv.SeriesSummary s = summary.get();
      JsonNode ctx = in.context();
      String source = ctx != null && ctx.path("source").isTextual() ? ctx.get("source").asText()
          : parsed.get().vendor().equals("nvidia") ? "nvidia-smi" : "amd-smi";
      boolean simulated = ctx != null && ctx.path("simulated").asBoolean(false);
      ObjectNode sidecars = JsonNodeFactory.instance.objectNode();
      sidecars.set("context", ctx);
      sidecars.set("identity", in.identity());
      sidecars.set("energyStart", in.energyStart() == null ? null : Json.mapper().valueToTree(in.energyStart()));
      sidecars.set("energyEnd", in.energyEnd() == null ? null : Json.mapper().valueToTree(in.energyEnd()));
      String sidecarText = Json.compact().writeValueAsString(sidecars);

      Optional<Map<String, Object>> old = h.createQuery("select id, csv_sha256, stats_version, sidecars from gpu_metric_series "
              + "where workflow_run_id = :run and artifact_name = :a and file_name = :f")
          .bind("run", runDbId).bind("a", in.artifactName()).bind("f", in.fileName()).mapToMap().findOne();
      long seriesId;
      boolean unchanged = old.isPresent() && in.sha256().equals(old.get().get("csv_sha256"))
          && ((Number) old.get().get("stats_version")).intValue() == STATS_VERSION
          && sidecarText.equals(old.get().get("sidecars"));
      if (unchanged) {
        seriesId = ((Number) old.get().get("id")).longValue();
      } else {
        if (old.isPresent()) {
          seriesId = ((Number) old.get().get("id")).longValue();
          h.createUpdate("delete from gpu_metric_samples where series_id = :id").bind("id", seriesId).execute();
          h.createUpdate("delete from gpu_metric_gpu_stats where series_id = :id").bind("id", seriesId).execute();
          h.createUpdate("update gpu_metric_series set vendor = :vendor, source = :source, simulated = :sim, "
                  + "csv_sha256 = :sha, sample_interval_s = :interval, sample_count = :n, gpu_count = :gpus, "
                  + "started_at = :start, ended_at = :end, sidecars = :sidecars, stats_version = :v where id = :id")
              .bind("id", seriesId).bind("vendor", parsed.get().vendor()).bind("source", source).bind("sim", simulated)
              .bind("sha", in.sha256()).bind("interval", s.sampleIntervalS().isPresent() ? s.sampleIntervalS().getAsDouble() : null)
              .bind("n", s.sampleCount()).bind("gpus", s.gpuCount()).bind("start", time(s.startedAtMs()))
              .bind("end", time(s.endedAtMs())).bind("sidecars", sidecarText).bind("v", STATS_VERSION).execute();
        } else {
          seriesId = h.createUpdate("insert into gpu_metric_series (workflow_run_id, artifact_name, config_key, file_name, "
                  + "vendor, source, simulated, csv_sha256, sample_interval_s, sample_count, gpu_count, started_at, ended_at, "
                  + "sidecars, stats_version) values (:run, :a, :key, :f, :vendor, :source, :sim, :sha, :interval, :n, :gpus, "
                  + ":start, :end, :sidecars, :v)")
              .bind("run", runDbId).bind("a", in.artifactName()).bind("key", in.suffix()).bind("f", in.fileName())
              .bind("vendor", parsed.get().vendor()).bind("source", source).bind("sim", simulated).bind("sha", in.sha256())
              .bind("interval", s.sampleIntervalS().isPresent() ? s.sampleIntervalS().getAsDouble() : null)
              .bind("n", s.sampleCount()).bind("gpus", s.gpuCount()).bind("start", time(s.startedAtMs()))
              .bind("end", time(s.endedAtMs())).bind("sidecars", sidecarText).bind("v", STATS_VERSION)
              .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
        }
        series++;
        samples += insertSamples(h, seriesId, rows);
        PreparedBatch stats = h.prepareBatch("insert into gpu_metric_gpu_stats (series_id, gpu_index, metric, sample_count, "
            + "min_value, max_value, mean_value, median_value, p75_value, p90_value, p95_value, p99_value, stddev_value) "
            + "values (:s, :g, :m, :n, :min, :max, :mean, :median, :p75, :p90, :p95, :p99, :sd)");
        for (GpuMetricsCsv.Stat st : GpuMetricsCsv.stats(rows)) {
          stats.bind("s", seriesId).bind("g", st.gpuIndex()).bind("m", st.metric().column()).bind("n", st.count())
              .bind("min", st.min()).bind("max", st.max()).bind("mean", st.mean()).bind("median", st.median())
              .bind("p75", st.p75()).bind("p90", st.p90()).bind("p95", st.p95()).bind("p99", st.p99())
              .bind("sd", st.stddev()).add();
        }
        if (stats.size() > 0) {
          stats.execute();
        }
      }
      link(h, seriesId, pointsBySuffix.getOrDefault(in.suffix(), List.of()));
    }
    return new Written(series, samples);
  }

  /** Series kept per endpoint when a server-metrics file is read back (the scraper's own cap). */
  static final int MAX_SERIES = 4096;

  /**
   * The server {@code /metrics} series of infx points: per point and endpoint, every series' window
   * summary, and the samples of the series infx reads ({@link io.infx.client.telemetry.ServerMetricNames}).
   * A point that already has series of that endpoint keeps them (a re-ingest writes nothing).
   */
  static Written writeServer(Handle h, List<RunArtifacts.ServerMetricsInput> inputs,
      Map<String, List<Long>> pointsBySuffix, SkipTracker tracker) throws JsonProcessingException {
    long series = 0;
    long samples = 0;
    for (RunArtifacts.ServerMetricsInput in : inputs) {
      io.infx.client.telemetry.ServerMetricsLog.Contents contents;
      try {
        contents = io.infx.client.telemetry.ServerMetricsLog.read(in.text());
      } catch (IllegalArgumentException e) {
        tracker.recordTelemetryError(in.artifactName() + "/" + in.fileName(), e.getMessage());
        continue;
      }
      List<io.infx.client.telemetry.ServerWindow> windows = contents.windows(MAX_SERIES);
      for (long point : distinct(pointsBySuffix.getOrDefault(in.suffix(), List.of()))) {
        for (int e = 0; e < windows.size(); e++) {
          io.infx.client.telemetry.ServerWindow w = windows.get(e);
          boolean present = h.createQuery("select count(*) from server_metric_series where benchmark_result_id = :p "
              + "and endpoint = :e").bind("p", point).bind("e", w.endpoint()).mapTo(Long.class).one() > 0;
          if (present) {
            continue;
          }
          java.util.Set<String> sampled = io.infx.client.telemetry.ServerMetricNames.namesOf(w.engine());
          for (io.infx.client.telemetry.ServerWindow.SeriesWindow sw : w.series()) {
            long id = h.createUpdate("insert into server_metric_series (benchmark_result_id, endpoint, engine, metric, "
                    + "labels, kind, quantity, window_first, window_last, window_delta, window_min, window_max, window_mean, "
                    + "window_samples) values (:p, :e, :engine, :m, :labels, :kind, :q, :first, :last, :delta, :min, :max, "
                    + ":mean, :n)")
                .bind("p", point).bind("e", w.endpoint()).bind("engine", w.engine().label()).bind("m", sw.name())
                .bind("labels", Json.compact().writeValueAsString(new java.util.TreeMap<>(sw.labels())))
                .bind("kind", sw.counter() ? "counter" : "gauge").bind("q", quantityOf(w.engine(), sw.name()))
                .bind("first", sw.first()).bind("last", sw.last()).bind("delta", sw.delta()).bind("min", sw.min())
                .bind("max", sw.max()).bind("mean", sw.mean()).bind("n", sw.samples())
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
            series++;
            if (sampled.contains(sw.name())) {
              samples += insertServerSamples(h, id, e, sw.key(), contents);
            }
          }
        }
      }
    }
    return new Written(series, samples);
  }

  private static String quantityOf(io.infx.client.telemetry.ServerMetricNames.Engine engine, String name) {
    for (io.infx.client.telemetry.ServerMetricNames.Quantity q : io.infx.client.telemetry.ServerMetricNames.Quantity.values()) {
      Optional<io.infx.client.telemetry.ServerMetricNames.Reading> r = io.infx.client.telemetry.ServerMetricNames.recipe(engine, q);
      if (r.isPresent() && r.get().terms().stream().anyMatch(t -> t.contains(name))) {
        return q.key();
      }
    }
    return null;
  }

  private static long insertServerSamples(Handle h, long seriesId, int endpoint, String key,
      io.infx.client.telemetry.ServerMetricsLog.Contents contents) {
    List<io.infx.client.telemetry.ServerMetricsLog.Line> lines = contents.lines();
    int[] bounds = contents.bounds(endpoint);
    PreparedBatch b = h.prepareBatch("insert into server_metric_samples (series_id, sampled_at, in_window, sample_value) "
        + "values (:s, :t, :w, :v)");
    Set<Long> seen = new java.util.HashSet<>();
    long n = 0;
    for (int i = 0; i < lines.size(); i++) {
      var l = lines.get(i);
      if (l.endpoint() != endpoint || l.scrape() == null) {
        continue;
      }
      Double v = l.scrape().counters().get(key);
      if (v == null) {
        v = l.scrape().gauges().get(key);
      }
      if (v == null || !Double.isFinite(v) || !seen.add(l.timeMs())) {
        continue;
      }
      b.bind("s", seriesId).bind("t", time(l.timeMs())).bind("w", contents.inWindow(i, bounds)).bind("v", v).add();
      n++;
      if (b.size() >= 2000) {
        b.execute();
      }
    }
    if (b.size() > 0) {
      b.execute();
    }
    return n;
  }

  private static long insertSamples(Handle h, long seriesId, List<GpuMetricsCsv.Sample> rows) {
    StringBuilder cols = new StringBuilder("series_id, gpu_index, sampled_at");
    StringBuilder vals = new StringBuilder(":s, :g, :t");
    for (GpuMetricsCsv.Field f : GpuMetricsCsv.Field.values()) {
      cols.append(", ").append(f.column());
      vals.append(", :").append(f.column());
    }
    PreparedBatch b = h.prepareBatch("insert into gpu_metric_samples (" + cols + ") values (" + vals + ")");
    long n = 0;
    for (GpuMetricsCsv.Sample r : rows) {
      b.bind("s", seriesId).bind("g", r.gpuIndex()).bind("t", time(r.timestampMs()));
      for (GpuMetricsCsv.Field f : GpuMetricsCsv.Field.values()) {
        b.bind(f.column(), r.get(f));
      }
      b.add();
      n++;
      if (b.size() >= 2000) {
        b.execute();
      }
    }
    if (b.size() > 0) {
      b.execute();
    }
    return n;
  }

  private static void link(Handle h, long seriesId, Collection<Long> points) {
    Set<Long> have = new LinkedHashSet<>(h.createQuery("select benchmark_result_id from benchmark_result_gpu_metrics "
        + "where series_id = :s").bind("s", seriesId).mapTo(Long.class).list());
    for (long p : new LinkedHashSet<>(points)) {
      if (have.add(p)) {
        h.createUpdate("insert into benchmark_result_gpu_metrics (benchmark_result_id, series_id) values (:p, :s)")
            .bind("p", p).bind("s", seriesId).execute();
      }
    }
  }

  static OffsetDateTime time(long epochMillis) {
    return OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
  }

  static List<Long> distinct(Collection<Long> ids) {
    return new ArrayList<>(new LinkedHashSet<>(ids));
  }
}
