package io.infx.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.store.internal.Database;
import io.infx.store.internal.Ingestor;
import io.infx.store.internal.LatestView;
import io.infx.store.internal.Verifier;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * A results store: benchmark points, run stats, evals and changelog entries ingested from infx run
 * directories or InferenceX artifact directories, mapped exactly as InferenceX-app maps them, with
 * a latest view and history. Embedded single file by default, PostgreSQL at scale; the same
 * migrations (Flyway) and behaviour on both.
 *
 * <pre>{@code
 * try (ResultStore store = ResultStore.open(StoreLocation.parse("results.mv.db"))) {
 *   IngestReport r = store.ingest(Path.of("runs/2026-12-01"), IngestOptions.defaults());
 *   List<LatestPoint> pts = store.latestPoints(PointQuery.model("dsr1").islOsl(1024, 1024));
 * }
 * }</pre>
 *
 * <p>Thread-safe: ingests are serialized by a lock row in the database (across processes too on
 * PostgreSQL; an embedded file serves one process at a time). Queries never block ingests' readers.
 */
public final class ResultStore implements AutoCloseable {

  private final StoreLocation location;
  private final Database db;
  private final Ingestor ingestor;

  private ResultStore(StoreLocation location, Database db) {
    this.location = location;
    this.db = db;
    this.ingestor = new Ingestor(db);
  }

  /**
   * Opens a store, creating an embedded file when missing, and migrates it to the current schema.
   *
   * @throws StoreException when the database cannot be reached, the embedded file is in use by
   *     another process, or a migration fails
   */
  public static ResultStore open(StoreLocation location) {
    Objects.requireNonNull(location, "location");
    if (location.isEmbedded()) {
      try {
        java.nio.file.Files.createDirectories(location.file().getParent());
      } catch (java.io.IOException e) {
        throw new StoreException("cannot create " + location.file().getParent() + ": " + e.getMessage(), e);
      }
    }
    return new ResultStore(location, Database.open(location.jdbcUrl(), location.toString()));
  }

  public StoreLocation location() {
    return location;
  }

  /** The applied schema version. */
  public String schemaVersion() {
    return db.schemaVersion();
  }

  /**
   * Ingests one run directory (or one JSON file of rows) in one transaction; re-ingesting the same
   * input changes nothing and reports every row as duplicate.
   *
   * @throws StoreException for unreadable or empty input, simulated rows without
   *     {@link IngestOptions#allowSimulated}, or a failed write (rolled back)
   */
  public IngestReport ingest(Path path, IngestOptions options) {
    return ingest(path, options, line -> { });
  }

  /** {@link #ingest(Path, IngestOptions)} with progress lines (read, written, committing). */
  public IngestReport ingest(Path path, IngestOptions options, Consumer<String> progress) {
    return ingestor.ingest(path, options, progress);
  }

  /** Rebuilds the whole latest view (ingest refreshes the curves it touches by itself). */
  public void refreshLatest() {
    db.jdbi().useTransaction(h -> {
      h.createUpdate("update store_lock set ingests = ingests where id = 1").execute();
      LatestView.refresh(h, null);
    });
  }

  private static final String POINT_COLUMNS = "select c.*, br.id as point_id, br.benchmark_type, br.isl, br.osl, br.conc, br.offload_mode, "
      + "br.recipe_fingerprint, br.image, br.metrics, br.simulated, br.server_engine, br.server_version, "
      + "wr.date as run_date, wr.run_id, wr.html_url ";

  /**
   * The latest view's points for a model (DB key, e.g. {@code dsr1}) across all hardware, optionally
   * narrowed by ISL/OSL, precision, hardware, framework and conc. Real rows only (simulated rows never
   * enter the latest view). Ordered by hardware, framework, precision, config, ISL, OSL, conc.
   */
  public List<LatestPoint> latestPoints(PointQuery q) {
    StringBuilder sql = new StringBuilder(POINT_COLUMNS)
        .append("from latest_benchmarks lb join benchmark_results br on br.id = lb.benchmark_result_id ")
        .append("join configs c on c.id = br.config_id join workflow_runs wr on wr.id = br.workflow_run_id ")
        .append("where lb.model = :model");
    appendFilters(sql, q);
    sql.append(" order by c.hardware, c.framework, c.precision, c.id, br.isl_key, br.osl_key, br.conc, br.offload_mode, br.fingerprint_key");
    try (Handle h = db.open()) {
      Query query = h.createQuery(sql.toString()).bind("model", q.model());
      bindFilters(query, q);
      return query.map((rs, ctx) -> point(rs)).list();
    }
  }

  /**
   * The points of {@code :model} in every run at its highest attempt, failed points left out — the
   * base that {@link #history} and {@link #allPoints} read (the latest view is separate).
   */
  private static final String STORED_POINTS_OF_MODEL =
      "from benchmark_results br join configs c on c.id = br.config_id "
      + "join workflow_runs wr on wr.id = br.workflow_run_id "
      + "where c.model = :model and br.error is null and wr.run_attempt = "
      + "(select max(w2.run_attempt) from workflow_runs w2 where w2.run_id = wr.run_id)";

  /** Oldest run first, then a stable order of the configuration and the point within a run. */
  private static final String OLDEST_RUN_FIRST = " order by wr.date, wr.run_started_at, wr.id, c.hardware, "
      + "c.framework, c.precision, c.id, br.isl_key, br.osl_key, br.conc";

  /**
   * A point's metric over every stored run (highest attempts; simulated rows included and flagged),
   * oldest first: the rows matching the query, one entry per (run, config, ISL, OSL, conc).
   *
   * @param metric a metrics key, e.g. {@code tput_per_gpu}, {@code median_intvty}, {@code p99_ttft}
   */
  public List<HistoryEntry> history(PointQuery q, String metric) {
    Objects.requireNonNull(metric, "metric");
    StringBuilder sql = new StringBuilder(POINT_COLUMNS)
        .append(", (select count(*) from latest_benchmarks lb where lb.benchmark_result_id = br.id) as latest ")
        .append(STORED_POINTS_OF_MODEL);
    appendFilters(sql, q);
    sql.append(OLDEST_RUN_FIRST);
    try (Handle h = db.open()) {
      Query query = h.createQuery(sql.toString()).bind("model", q.model());
      bindFilters(query, q);
      return query.map((rs, ctx) -> {
        LatestPoint p = point(rs);
        return new HistoryEntry(p.date(), p.runId(), p.config(), p.isl(), p.osl(), p.conc(), metric,
            p.metric(metric).isPresent() ? p.metric(metric).getAsDouble() : null, p.simulated(), rs.getLong("latest") > 0);
      }).list();
    }
  }

  /**
   * Every stored point of a model (highest attempt of each run, failed points excluded), simulated
   * rows included and flagged, oldest run first — what a dashboard needs to show any date, not only
   * the latest view.
   */
  public List<LatestPoint> allPoints(PointQuery q) {
    StringBuilder sql = new StringBuilder(POINT_COLUMNS)
        .append(STORED_POINTS_OF_MODEL);
    appendFilters(sql, q);
    sql.append(OLDEST_RUN_FIRST);
    try (Handle h = db.open()) {
      Query query = h.createQuery(sql.toString()).bind("model", q.model());
      bindFilters(query, q);
      return query.map((rs, ctx) -> point(rs)).list();
    }
  }

  /** The models (DB keys) that have benchmark points, sorted. */
  public List<String> models() {
    try (Handle h = db.open()) {
      return h.createQuery("select distinct c.model from configs c join benchmark_results br on br.config_id = c.id "
          + "order by c.model").mapTo(String.class).list();
    }
  }

  /** Every stored run (highest attempt of each run id), newest first. */
  public List<RunSummary> runs() {
    try (Handle h = db.open()) {
      return h.createQuery("select wr.*, (select count(*) from benchmark_results br where br.workflow_run_id = wr.id) as b, "
              + "(select count(*) from benchmark_results br where br.workflow_run_id = wr.id and br.simulated = true) as s, "
              + "(select count(*) from eval_results er where er.workflow_run_id = wr.id) as e from workflow_runs wr "
              + "where wr.run_attempt = (select max(w2.run_attempt) from workflow_runs w2 where w2.run_id = wr.run_id) "
              + "order by wr.date desc, wr.run_started_at desc, wr.id desc")
          .map((rs, ctx) -> new RunSummary(rs.getString("run_id"), rs.getInt("run_attempt"), rs.getString("source"),
              rs.getObject("date", LocalDate.class), rs.getString("name"), rs.getString("html_url"),
              rs.getBoolean("append_only"), rs.getLong("b"), rs.getLong("s"), rs.getLong("e")))
          .list();
    }
  }

  /** The deterministic verification report; {@link VerifyReport#passed()} applies the thresholds. */
  public VerifyReport verify(VerifyThresholds thresholds) {
    try (Handle h = db.open()) {
      return Verifier.verify(h, thresholds);
    }
  }

  private static void appendFilters(StringBuilder sql, PointQuery q) {
    // Only fixed fragments are appended; every value is a bound parameter.
    q.isl().ifPresent(x -> sql.append(" and br.isl = :isl"));
    q.osl().ifPresent(x -> sql.append(" and br.osl = :osl"));
    q.precision().ifPresent(x -> sql.append(" and c.precision = :precision"));
    q.hardware().ifPresent(x -> sql.append(" and c.hardware = :hardware"));
    q.framework().ifPresent(x -> sql.append(" and c.framework = :framework"));
    q.conc().ifPresent(x -> sql.append(" and br.conc = :conc"));
  }

  private static void bindFilters(Query query, PointQuery q) {
    q.isl().ifPresent(x -> query.bind("isl", x));
    q.osl().ifPresent(x -> query.bind("osl", x));
    q.precision().ifPresent(x -> query.bind("precision", x));
    q.hardware().ifPresent(x -> query.bind("hardware", x));
    q.framework().ifPresent(x -> query.bind("framework", x));
    q.conc().ifPresent(x -> query.bind("conc", x));
  }

  private static LatestPoint point(ResultSet rs) throws SQLException {
    JsonNode metrics;
    try {
      metrics = Json.mapper().readTree(rs.getString("metrics"));
    } catch (JsonProcessingException e) {
      throw new StoreException("stored metrics are not JSON: " + e.getOriginalMessage(), e);
    }
    return new LatestPoint(Ingestor.fromRow(rs), rs.getString("benchmark_type"), (Integer) rs.getObject("isl", Integer.class),
        rs.getObject("osl", Integer.class), rs.getInt("conc"), rs.getString("offload_mode"),
        rs.getString("recipe_fingerprint"), rs.getString("image"), rs.getObject("run_date", LocalDate.class),
        rs.getString("run_id"), rs.getString("html_url"), metrics, rs.getBoolean("simulated"),
        rs.getString("server_engine"), rs.getString("server_version"), rs.getLong("point_id"));
  }

  /**
   * The telemetry stored with a point (migration V3): its GPU series with their per-GPU digests,
   * its server {@code /metrics} series (window summaries) and its row's telemetry flags. Empty
   * lists when the point has none or does not exist.
   *
   * @param benchmarkResultId {@link LatestPoint#id()}
   */
  public PointTelemetry telemetry(long benchmarkResultId) {
    try (Handle h = db.open()) {
      List<GpuMetricSeries> gpu = h.createQuery("select s.* from gpu_metric_series s join benchmark_result_gpu_metrics l "
              + "on l.series_id = s.id where l.benchmark_result_id = :p order by s.artifact_name, s.file_name")
          .bind("p", benchmarkResultId)
          .map((rs, ctx) -> {
            long id = rs.getLong("id");
            double interval = rs.getDouble("sample_interval_s");
            return new GpuMetricSeries(id, rs.getString("artifact_name"), rs.getString("config_key"),
                rs.getString("file_name"), rs.getString("vendor"), rs.getString("source"), rs.getBoolean("simulated"),
                rs.wasNull() ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(interval),
                rs.getInt("sample_count"), rs.getInt("gpu_count"),
                rs.getObject("started_at", java.time.OffsetDateTime.class).toInstant(),
                rs.getObject("ended_at", java.time.OffsetDateTime.class).toInstant(),
                json(rs.getString("sidecars")), List.of());
          }).list();
      List<GpuMetricSeries> withStats = new ArrayList<>();
      for (GpuMetricSeries g : gpu) {
        List<GpuMetricStat> stats = h.createQuery("select * from gpu_metric_gpu_stats where series_id = :s "
                + "order by gpu_index, metric").bind("s", g.id())
            .map((rs, ctx) -> new GpuMetricStat(rs.getInt("gpu_index"), rs.getString("metric"), rs.getInt("sample_count"),
                rs.getDouble("min_value"), rs.getDouble("max_value"), rs.getDouble("mean_value"),
                rs.getDouble("median_value"), rs.getDouble("p75_value"), rs.getDouble("p90_value"),
                rs.getDouble("p95_value"), rs.getDouble("p99_value"), rs.getDouble("stddev_value")))
            .list();
        withStats.add(new GpuMetricSeries(g.id(), g.artifactName(), g.configKey(), g.fileName(), g.vendor(), g.source(),
            g.simulated(), g.sampleIntervalS(), g.sampleCount(), g.gpuCount(), g.startedAt(), g.endedAt(), g.sidecars(),
            stats));
      }
      List<ServerMetricSeries> server = h.createQuery("select * from server_metric_series where benchmark_result_id = :p "
              + "order by id").bind("p", benchmarkResultId)
          .map((rs, ctx) -> new ServerMetricSeries(rs.getLong("id"), rs.getString("endpoint"), rs.getString("engine"),
              rs.getString("metric"), labels(rs.getString("labels")), rs.getString("kind"), rs.getString("quantity"),
              (Double) rs.getObject("window_first", Double.class), rs.getObject("window_last", Double.class),
              rs.getObject("window_delta", Double.class), rs.getObject("window_min", Double.class),
              rs.getObject("window_max", Double.class), rs.getObject("window_mean", Double.class),
              rs.getLong("window_samples")))
          .list();
      List<String> flags = new ArrayList<>();
      h.createQuery("select telemetry_flags from benchmark_results where id = :p").bind("p", benchmarkResultId)
          .mapTo(String.class).findOne().ifPresent(f -> json(f).forEach(n -> flags.add(n.asText())));
      return new PointTelemetry(benchmarkResultId, withStats, server, flags);
    }
  }

  /** A GPU series' samples, by instant then GPU. */
  public List<GpuMetricSample> gpuSamples(long seriesId) {
    try (Handle h = db.open()) {
      return h.createQuery("select * from gpu_metric_samples where series_id = :s order by sampled_at, gpu_index")
          .bind("s", seriesId)
          .map((rs, ctx) -> new GpuMetricSample(rs.getInt("gpu_index"),
              rs.getObject("sampled_at", java.time.OffsetDateTime.class).toInstant(),
              rs.getObject("power_w", Double.class), rs.getObject("temperature_c", Double.class),
              rs.getObject("sm_clock_mhz", Double.class), rs.getObject("mem_clock_mhz", Double.class),
              rs.getObject("gpu_util_pct", Double.class), rs.getObject("mem_util_pct", Double.class),
              rs.getObject("edge_temp_c", Double.class), rs.getObject("mem_temp_c", Double.class),
              rs.getObject("gfx_voltage_mv", Double.class), rs.getObject("soc_voltage_mv", Double.class),
              rs.getObject("mem_voltage_mv", Double.class), rs.getObject("fclk_mhz", Double.class),
              rs.getObject("socclk_mhz", Double.class), rs.getObject("mm_activity_pct", Double.class),
              rs.getObject("energy_j", Double.class)))
          .list();
    }
  }

  /** A server series' samples (kept for the series infx reads), oldest first. */
  public List<ServerMetricSample> serverSamples(long serverSeriesId) {
    try (Handle h = db.open()) {
      return h.createQuery("select * from server_metric_samples where series_id = :s order by sampled_at")
          .bind("s", serverSeriesId)
          .map((rs, ctx) -> new ServerMetricSample(rs.getObject("sampled_at", java.time.OffsetDateTime.class).toInstant(),
              rs.getBoolean("in_window"), rs.getDouble("sample_value")))
          .list();
    }
  }

  private static JsonNode json(String text) {
    if (text == null) {
      return com.fasterxml.jackson.databind.node.NullNode.getInstance();
    }
    try {
      return Json.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new StoreException("stored JSON is malformed: " + e.getOriginalMessage(), e);
    }
  }

  private static Map<String, String> labels(String text) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    json(text).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  /** Lists rows of one table for tests and tools: never used with input-derived table names. */
  List<Map<String, Object>> rowsOf(String table) {
    if (!List.of("configs", "workflow_runs", "benchmark_results", "latest_benchmarks", "run_stats", "eval_results",
        "eval_samples", "changelog_entries", "availability", "gpu_metric_series", "gpu_metric_samples",
        "gpu_metric_gpu_stats", "benchmark_result_gpu_metrics", "server_metric_series", "server_metric_samples")
        .contains(table)) {
      throw new IllegalArgumentException("unknown table " + table);
    }
    try (Handle h = db.open()) {
      return new ArrayList<>(h.createQuery("select * from " + table).mapToMap().list());
    }
  }

  @Override
  public void close() {
    db.close();
  }
}
