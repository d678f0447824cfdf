package io.infx.store.internal;

import static io.infx.core.Wording.setting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.Wording;
import io.infx.core.json.Json;
import io.infx.store.IngestOptions;
import io.infx.store.IngestReport;
import io.infx.store.StoreException;
import io.infx.store.mapping.BenchmarkMapper;
import io.infx.store.mapping.BenchmarkParams;
import io.infx.store.mapping.ConfigParams;
import io.infx.store.mapping.EvalMapper;
import io.infx.store.mapping.EvalParams;
import io.infx.store.mapping.Normalizers;
import io.infx.store.mapping.RunStats;
import io.infx.store.mapping.SkipTracker;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Ingests one run directory in one transaction (the reference's {@code ingest-ci-run.ts} stages 3-10
 * for one run): map everything first, then under the store lock upsert the run, configs,
 * benchmark rows (natural key, last occurrence in the batch wins), run stats, evals and samples,
 * changelog entries and availability, and refresh the latest view of the curves it touched. A
 * failure or a killed process leaves the store as it was.
 */
public final class Ingestor {

  /** Keys infx adds to aggregate rows for provenance; kept out of the reference's metrics. */
  static final List<String> PROVENANCE_KEYS =
      List.of("simulated", "server_engine", "server_version", "client_version", "client_overhead", "telemetry_flags");

  /** The charted metrics stored as typed columns besides the metrics JSON (coverage checked by verify). */
  static final List<String> CHARTED_METRICS = List.of("tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu",
      "median_ttft", "p99_ttft", "median_tpot", "median_e2el", "median_intvty");

  /**
   * The power metrics stored as typed columns too (migration V3): present only on rows with a
   * valid power measurement, so {@code infx db verify} does not hold them to its coverage threshold.
   */
  static final List<String> POWER_METRICS = List.of("avg_power_w", "p75_power_w", "p90_power_w",
      "total_gpu_energy_j", "joules_per_output_token", "joules_per_successful_query");

  /** Every typed metric column: the charted ones, then the power ones. */
  static final List<String> TYPED_METRICS = java.util.stream.Stream.concat(CHARTED_METRICS.stream(),
      POWER_METRICS.stream()).toList();

  /** {@code , a, b, …} of the typed columns, for an insert's column list. */
  private static final String TYPED_COLUMNS = TYPED_METRICS.stream().map(k -> ", " + k).reduce("", String::concat);
  /** {@code , :a, :b, …}: their bound values. */
  private static final String TYPED_VALUES = TYPED_METRICS.stream().map(k -> ", :" + k).reduce("", String::concat);
  /** {@code , a = :a, …}: their update. */
  private static final String TYPED_SET = TYPED_METRICS.stream().map(k -> ", " + k + " = :" + k).reduce("", String::concat);

  private final Database db;

  public Ingestor(Database db) {
    this.db = db;
  }

  /** Provenance infx records per result. */
  record Provenance(boolean simulated, String serverEngine, String serverVersion, String clientVersion,
      String clientOverhead, String telemetryFlags) {}

  record Mapped(BenchmarkParams params, Provenance provenance, String file) {}

  /** Natural key of a benchmark row within a run. */
  record PointKey(long configId, String type, int islKey, int oslKey, long conc, String offload, String fingerprint) {}

  /**
   * Ingests one directory.
   *
   * @param progress receives short progress lines (tests use it to stop a process mid-transaction)
   * @throws StoreException for unreadable input, refused simulated rows, or a failed write (rolled back)
   */
  public IngestReport ingest(Path path, IngestOptions options, Consumer<String> progress) {
    RunArtifacts a = RunArtifacts.read(path);
    List<String> errorLines = new ArrayList<>();
    SkipTracker tracker = new SkipTracker(errorLines::add);
    String runId = options.runId().orElseGet(() -> workflowText(a.workflowRun, "id", "run_id").orElseGet(a::contentRunId));
    int attempt = options.runAttempt().orElseGet(() -> workflowInt(a.workflowRun, "run_attempt").orElse(1));

    List<Mapped> mapped = new ArrayList<>();
    List<String> simulatedFiles = new ArrayList<>();
    for (RunArtifacts.BenchmarkInput in : a.benchmarks) {
      JsonNode row = in.row();
      if (!Normalizers.hasSupportedResultSchemaVersion(row)) {
        tracker.inc(SkipTracker.Skip.unsupportedVersion);
        continue;
      }
      Provenance prov = provenance(row);
      ObjectNode stripped = ((ObjectNode) row).deepCopy();
      PROVENANCE_KEYS.forEach(stripped::remove);
      Optional<BenchmarkParams> p = BenchmarkMapper.map(stripped, tracker, in.islOslFallback(), runId);
      if (p.isPresent()) {
        if (prov.simulated()) {
          simulatedFiles.add(in.file());
        }
        mapped.add(new Mapped(p.get(), prov, in.file()));
      }
    }
    if (!simulatedFiles.isEmpty() && !options.allowSimulated()) {
      throw new StoreException(Wording.of(path + ": " + simulatedFiles.size() + " simulated row(s) (first in "
          + simulatedFiles.get(0) + "); simulated results are refused by default — pass ",
          setting("allowSimulated"), " to store them flagged (they never enter the latest view of real rows)"));
    }
    List<EvalParams> evalRows = new ArrayList<>();
    Map<EvalParams, List<RunArtifacts.SampleFile>> evalSamples = new HashMap<>();
    for (JsonNode r : a.aggEvalRows) {
      EvalMapper.mapAggEvalRow(r, tracker).ifPresent(evalRows::add);
    }
    for (RunArtifacts.EvalInput e : a.evals) {
      for (EvalParams p : EvalMapper.mapEvalRow(e.meta(), e.results(), tracker)) {
        evalRows.add(p);
        evalSamples.put(p, e.samples());
      }
    }
    List<RunStats> stats = new ArrayList<>();
    for (JsonNode s : a.runStats) {
      stats.addAll(RunStats.map(s, tracker));
    }
    boolean appendOnly = false;
    for (JsonNode c : a.changelogs) {
      appendOnly |= truthy(c.get("append_only")) || truthy(c.get("append-only"));
      for (JsonNode e : c.path("entries")) {
        appendOnly |= truthy(e.get("append_only")) || truthy(e.get("append-only"));
      }
    }
    LocalDate date = options.date()
        .or(() -> workflowText(a.workflowRun, "created_at", "run_started_at").flatMap(Ingestor::parseDate))
        .orElseGet(a::newestFileDate);
    progress.accept("mapped " + mapped.size() + " benchmark row(s), " + evalRows.size() + " eval row(s) from " + path);

    final boolean appendOnlyRun = appendOnly;
    Counts counts = inTransaction(h -> write(h, a, runId, attempt, date, appendOnlyRun, mapped, evalRows, evalSamples,
        stats, tracker, progress));
    errorLines.forEach(System.err::println);
    Map<String, Long> skips = new LinkedHashMap<>();
    tracker.skips().forEach((k, v) -> {
      if (v != 0) {
        skips.put(k.name(), v);
      }
    });
    return new IngestReport(path.toString(), runId, attempt, date, counts.newRun, counts.inserted, counts.duplicate,
        counts.updated, counts.simulated, counts.runStats, counts.evalsInserted, counts.evalsDuplicate,
        counts.samples, counts.changelog, skips, List.copyOf(tracker.unmappedModels()),
        List.copyOf(tracker.unmappedHws()), List.copyOf(tracker.unmappedPrecisions()), a.ignoredFiles,
        counts.telemetrySeries, counts.telemetrySamples);
  }

  private static boolean truthy(JsonNode n) {
    return n != null && (n.asBoolean(false) || "true".equalsIgnoreCase(n.asText()));
  }

  private static final class Counts {
    boolean newRun;
    long inserted;
    long duplicate;
    long updated;
    long simulated;
    long runStats;
    long evalsInserted;
    long evalsDuplicate;
    long samples;
    long changelog;
    long telemetrySeries;
    long telemetrySamples;
  }

  @FunctionalInterface
  interface TxBody<T> {
    T run(Handle h) throws Exception;
  }

  /** Runs a body in one transaction, retrying a serialization failure or deadlock up to 3 times. */
  <T> T inTransaction(TxBody<T> body) {
    for (int attempt = 1; ; attempt++) {
      try (Handle h = db.open()) {
        h.begin();
        try {
          T t = body.run(h);
          h.commit();
          return t;
        } catch (Exception e) {
          try {
            h.rollback();
          } catch (RuntimeException ignored) {
            // the connection is gone: the database discards the transaction itself
          }
          throw e;
        }
      } catch (StoreException e) {
        throw e;
      } catch (Exception e) {
        if (attempt < 3 && retryable(e)) {
          continue;
        }
        throw new StoreException("ingest into " + db.shown() + " failed and was rolled back: " + rootMessage(e), e);
      }
    }
  }

  private static boolean retryable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null
          && (s.getSQLState().startsWith("40") || s.getSQLState().equals("23505") || s.getSQLState().equals("HYT00"))) {
        return true;
      }
    }
    return false;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }

  private Counts write(Handle h, RunArtifacts a, String runId, int attempt, LocalDate date, boolean appendOnly,
      List<Mapped> mapped, List<EvalParams> evalRows, Map<EvalParams, List<RunArtifacts.SampleFile>> evalSamples,
      List<RunStats> stats, SkipTracker tracker, Consumer<String> progress) throws JsonProcessingException {
    Counts c = new Counts();
    // One writer at a time: the row lock on store_lock serializes ingests across threads and
    // processes; every statement after it sees everything committed before.
    h.createUpdate("update store_lock set ingests = ingests + 1 where id = 1").execute();

    Optional<Long> existingRun = h.createQuery("select id from workflow_runs where run_id = :r and run_attempt = :a")
        .bind("r", runId).bind("a", attempt).mapTo(Long.class).findOne();
    long runDbId;
    if (existingRun.isPresent()) {
      runDbId = existingRun.get();
    } else {
      c.newRun = true;
      JsonNode wf = a.workflowRun;
      runDbId = h.createUpdate("insert into workflow_runs (run_id, run_attempt, source, name, status, conclusion, "
              + "head_sha, head_branch, html_url, created_at, run_started_at, date, append_only, skips) values "
              + "(:run_id, :attempt, :source, :name, :status, :conclusion, :head_sha, :head_branch, :url, :created, "
              + ":started, :date, :append_only, :skips)")
          .bind("run_id", runId).bind("attempt", attempt).bind("source", a.source)
          .bind("name", workflowText(wf, "name").orElse(null))
          .bind("status", workflowText(wf, "status").orElse(null))
          .bind("conclusion", workflowText(wf, "conclusion").orElse(null))
          .bind("head_sha", workflowText(wf, "head_sha").orElse(null))
          .bind("head_branch", workflowText(wf, "head_branch").orElse(null))
          .bind("url", workflowText(wf, "html_url").orElse(null))
          .bind("created", workflowText(wf, "created_at").flatMap(Ingestor::parseTime).orElse(null))
          .bind("started", workflowText(wf, "run_started_at").flatMap(Ingestor::parseTime).orElse(null))
          .bind("date", date).bind("append_only", appendOnly)
          .bind("skips", skipsJson(tracker))
          .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    }

    ConfigIds configs = new ConfigIds(h);
    // Benchmark rows: deduplicate within the batch (last occurrence wins), then insert-or-compare.
    Map<PointKey, Mapped> batch = new LinkedHashMap<>();
    for (Mapped m : mapped) {
      BenchmarkParams p = m.params();
      long configId = configs.idOf(p.config());
      batch.put(new PointKey(configId, p.benchmarkType(), key(p.isl()), key(p.osl()), p.conc(), p.offloadMode(),
          p.recipeFingerprint() == null ? "" : p.recipeFingerprint()), m);
    }
    Map<PointKey, StoredRow> existing = new HashMap<>();
    h.createQuery("select id, config_id, benchmark_type, isl_key, osl_key, conc, offload_mode, fingerprint_key, "
            + "metrics, image, workers, power_invalid_reasons, power_audit, simulated, server_engine, server_version, "
            + "client_version, client_overhead, telemetry_flags from benchmark_results where workflow_run_id = :run")
        .bind("run", runDbId)
        .map((rs, ctx) -> new StoredRow(rs.getLong("id"),
            new PointKey(rs.getLong("config_id"), rs.getString("benchmark_type"), rs.getInt("isl_key"),
                rs.getInt("osl_key"), rs.getLong("conc"), rs.getString("offload_mode"), rs.getString("fingerprint_key")),
            new RowContent(rs.getString("metrics"), rs.getString("image"), rs.getString("workers"),
                rs.getString("power_invalid_reasons"), rs.getString("power_audit"), rs.getBoolean("simulated"),
                rs.getString("server_engine"), rs.getString("server_version"), rs.getString("client_version"),
                rs.getString("client_overhead"), rs.getString("telemetry_flags"))))
        .forEach(r -> existing.put(r.key(), r));

    Set<String> touchedCurves = new LinkedHashSet<>();
    Map<String, CurveSummary> summaries = new HashMap<>();
    Set<List<Object>> availability = new LinkedHashSet<>();
    PreparedBatch insert = h.prepareBatch("insert into benchmark_results (workflow_run_id, config_id, benchmark_type, "
        + "date, isl, osl, conc, isl_key, osl_key, image, metrics, error, offload_mode, recipe_fingerprint, "
        + "fingerprint_key, workers, power_invalid_reasons, power_audit, curve_key" + TYPED_COLUMNS + ", client_version, "
        + "server_engine, server_version, simulated, client_overhead, telemetry_flags) values (:run, :config, :type, :date, "
        + ":isl, :osl, :conc, :isl_key, :osl_key, :image, :metrics, null, :offload, :fingerprint, :fingerprint_key, "
        + ":workers, :reasons, :audit, :curve" + TYPED_VALUES + ", :client_version, :server_engine, :server_version, "
        + ":simulated, :client_overhead, :telemetry_flags)");
    for (Map.Entry<PointKey, Mapped> e : batch.entrySet()) {
      PointKey k = e.getKey();
      Mapped m = e.getValue();
      BenchmarkParams p = m.params();
      String curve = curveKey(p);
      touchedCurves.add(curve);
      if (!m.provenance().simulated()) {
        summaries.computeIfAbsent(curve, x -> new CurveSummary()).add(p.image());
      }
      if (m.provenance().simulated()) {
        c.simulated++;
      } else {
        ConfigParams cfg = p.config();
        availability.add(List.of(cfg.model(), k.islKey(), k.oslKey(), cfg.precision(), cfg.hardware(), cfg.framework(),
            cfg.specMethod(), cfg.disagg(), p.benchmarkType()));
      }
      StoredRow old = existing.get(k);
      RowContent fresh = content(p, m.provenance());
      if (old != null) {
        c.duplicate++;
        RowContent merged = fresh.keepingServerLogValue(old.content());
        if (!merged.equals(old.content())) {
          c.updated++;
          h.createUpdate("update benchmark_results set metrics = :metrics, image = :image, workers = :workers, "
                  + "power_invalid_reasons = :reasons, power_audit = :audit, simulated = :simulated, "
                  + "server_engine = :server_engine, server_version = :server_version, client_version = :client_version, "
                  + "client_overhead = :client_overhead, telemetry_flags = :telemetry_flags" + TYPED_SET + " where id = :id")
              .bind("id", old.id()).bind("metrics", merged.metrics()).bind("image", merged.image())
              .bind("workers", merged.workers()).bind("reasons", merged.reasons()).bind("audit", merged.audit())
              .bind("simulated", merged.simulated()).bind("server_engine", merged.serverEngine())
              .bind("server_version", merged.serverVersion()).bind("client_version", merged.clientVersion())
              .bind("client_overhead", merged.clientOverhead()).bind("telemetry_flags", merged.telemetryFlags())
              .bindMap(typedMetrics(Json.mapper().readTree(merged.metrics())))
              .execute();
        }
        continue;
      }
      c.inserted++;
      insert.bind("run", runDbId).bind("config", k.configId()).bind("type", p.benchmarkType()).bind("date", date)
          .bind("isl", toInt(p.isl())).bind("osl", toInt(p.osl())).bind("conc", Math.toIntExact(p.conc()))
          .bind("isl_key", k.islKey()).bind("osl_key", k.oslKey()).bind("image", fresh.image())
          .bind("metrics", fresh.metrics()).bind("offload", p.offloadMode()).bind("fingerprint", p.recipeFingerprint())
          .bind("fingerprint_key", k.fingerprint()).bind("workers", fresh.workers()).bind("reasons", fresh.reasons())
          .bind("audit", fresh.audit()).bind("curve", curve).bindMap(typedMetrics(p.metrics()))
          .bind("client_version", fresh.clientVersion()).bind("server_engine", fresh.serverEngine())
          .bind("server_version", fresh.serverVersion()).bind("simulated", fresh.simulated())
          .bind("client_overhead", fresh.clientOverhead()).bind("telemetry_flags", fresh.telemetryFlags())
          .add();
      if (insert.size() >= 2000) {
        insert.execute();
      }
    }
    if (insert.size() > 0) {
      insert.execute();
    }
    progress.accept("benchmark rows written: " + c.inserted + " new, " + c.duplicate + " duplicate");

    // Telemetry: each artifact's series is linked to the rows of the bmk_ artifact with its suffix.
    if (!a.gpuMetrics.isEmpty() || !a.serverMetrics.isEmpty()) {
      Map<PointKey, Long> ids = new HashMap<>();
      h.createQuery("select id, config_id, benchmark_type, isl_key, osl_key, conc, offload_mode, fingerprint_key "
              + "from benchmark_results where workflow_run_id = :run").bind("run", runDbId)
          .map((rs, ctx) -> Map.entry(new PointKey(rs.getLong("config_id"), rs.getString("benchmark_type"),
              rs.getInt("isl_key"), rs.getInt("osl_key"), rs.getLong("conc"), rs.getString("offload_mode"),
              rs.getString("fingerprint_key")), rs.getLong("id")))
          .forEach(e -> ids.put(e.getKey(), e.getValue()));
      Map<String, List<Long>> pointsBySuffix = new HashMap<>();
      for (Map.Entry<PointKey, Mapped> e : batch.entrySet()) {
        Long id = ids.get(e.getKey());
        TelemetryIngest.suffixOf(e.getValue().file()).ifPresent(sfx -> {
          if (id != null) {
            pointsBySuffix.computeIfAbsent(sfx, x -> new ArrayList<>()).add(id);
          }
        });
      }
      for (Mapped m : mapped) {
        // a point that arrived twice (its bmk_ file and the collected agg_bmk.json): the batch kept
        // the collected copy, the bmk_ copy still names the suffix
        BenchmarkParams p = m.params();
        PointKey k = new PointKey(configs.idOf(p.config()), p.benchmarkType(), key(p.isl()), key(p.osl()), p.conc(),
            p.offloadMode(), p.recipeFingerprint() == null ? "" : p.recipeFingerprint());
        Long id = ids.get(k);
        TelemetryIngest.suffixOf(m.file()).ifPresent(sfx -> {
          if (id != null) {
            pointsBySuffix.computeIfAbsent(sfx, x -> new ArrayList<>()).add(id);
          }
        });
      }
      TelemetryIngest.Written gpu = TelemetryIngest.writeGpu(h, runDbId, a.gpuMetrics, pointsBySuffix, tracker);
      TelemetryIngest.Written server = TelemetryIngest.writeServer(h, a.serverMetrics, pointsBySuffix, tracker);
      c.telemetrySeries = gpu.series() + server.series();
      c.telemetrySamples = gpu.samples() + server.samples();
      progress.accept("telemetry written: " + c.telemetrySeries + " series, " + c.telemetrySamples + " samples");
    }

    // Run stats, upserted per (run, hardware); last occurrence wins.
    Map<String, RunStats> statsByHw = new LinkedHashMap<>();
    stats.forEach(s -> statsByHw.put(s.hardware(), s));
    for (RunStats s : statsByHw.values()) {
      int n = (int) s.nSuccess();
      int t = (int) s.total();
      Optional<int[]> old = h.createQuery("select n_success, total from run_stats where workflow_run_id = :run and hardware = :hw")
          .bind("run", runDbId).bind("hw", s.hardware()).map((rs, ctx) -> new int[] {rs.getInt(1), rs.getInt(2)}).findOne();
      if (old.isEmpty()) {
        h.createUpdate("insert into run_stats (workflow_run_id, date, hardware, n_success, total) values (:run, :date, :hw, :n, :t)")
            .bind("run", runDbId).bind("date", date).bind("hw", s.hardware()).bind("n", n).bind("t", t).execute();
        c.runStats++;
      } else if (old.get()[0] != n || old.get()[1] != t) {
        h.createUpdate("update run_stats set n_success = :n, total = :t where workflow_run_id = :run and hardware = :hw")
            .bind("run", runDbId).bind("hw", s.hardware()).bind("n", n).bind("t", t).execute();
        c.runStats++;
      }
    }

    writeEvals(h, runDbId, date, evalRows, evalSamples, configs, c);
    writeChangelog(h, runDbId, date, a.changelogs, appendOnly, c);

    Set<List<Object>> knownAvailability = new java.util.HashSet<>(h.createQuery("select model, isl_key, osl_key, "
            + "precision, hardware, framework, spec_method, disagg, benchmark_type from availability where date = :date")
        .bind("date", date)
        .map((rs, ctx) -> List.<Object>of(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getString(5),
            rs.getString(6), rs.getString(7), rs.getBoolean(8), rs.getString(9)))
        .list());
    PreparedBatch availabilityInsert = h.prepareBatch("insert into availability (model, isl_key, osl_key, precision, "
        + "hardware, framework, spec_method, disagg, benchmark_type, date) values (:m, :i, :o, :p, :hw, :f, :s, :d, :t, :date)");
    for (List<Object> av : availability) {
      if (knownAvailability.add(av)) {
        availabilityInsert.bind("m", av.get(0)).bind("i", av.get(1)).bind("o", av.get(2)).bind("p", av.get(3))
            .bind("hw", av.get(4)).bind("f", av.get(5)).bind("s", av.get(6)).bind("d", av.get(7)).bind("t", av.get(8))
            .bind("date", date).add();
      }
    }
    if (availabilityInsert.size() > 0) {
      availabilityInsert.execute();
    }

    if (c.inserted > 0 || c.updated > 0) {
      if (existing.isEmpty()) {
        // A first ingest of this run: its rows per curve are exactly this batch.
        PreparedBatch sum = h.prepareBatch("insert into curve_runs (curve_key, workflow_run_id, n, images, "
            + "distinct_images, image) values (:curve, :run, :n, :images, :distinct, :image)");
        for (Map.Entry<String, CurveSummary> e : summaries.entrySet()) {
          CurveSummary cs = e.getValue();
          sum.bind("curve", e.getKey()).bind("run", runDbId).bind("n", cs.rows).bind("images", cs.images)
              .bind("distinct", (long) cs.distinct.size()).bind("image", cs.distinct.isEmpty() ? null : cs.distinct.first())
              .add();
        }
        if (sum.size() > 0) {
          sum.execute();
        }
      } else {
        for (String curve : touchedCurves) {
          LatestView.summarize(h, curve, runDbId);
        }
      }
      // Another attempt of the same run loses or regains visibility: refresh its curves too.
      List<Long> otherAttempts = h.createQuery("select id from workflow_runs where run_id = :r and run_attempt <> :a")
          .bind("r", runId).bind("a", attempt).mapTo(Long.class).list();
      if (!otherAttempts.isEmpty()) {
        touchedCurves.addAll(h.createQuery("select distinct curve_key from benchmark_results where workflow_run_id in (<runs>)")
            .bindList("runs", otherAttempts).mapTo(String.class).list());
      }
      LatestView.refresh(h, touchedCurves);
    }
    progress.accept("latest view refreshed; committing");
    return c;
  }

  private void writeEvals(Handle h, long runDbId, LocalDate date, List<EvalParams> evalRows,
      Map<EvalParams, List<RunArtifacts.SampleFile>> evalSamples, ConfigIds configs, Counts c)
      throws JsonProcessingException {
    for (EvalParams e : evalRows) {
      long configId = configs.idOf(e.config());
      int islKey = key(e.isl());
      int oslKey = key(e.osl());
      int concKey = key(e.conc());
      String metrics = Json.compact().writeValueAsString(e.metrics());
      Optional<Map.Entry<Long, String>> old = h.createQuery("select id, metrics from eval_results where workflow_run_id = :run "
              + "and config_id = :cfg and task = :task and isl_key = :i and osl_key = :o and conc_key = :k")
          .bind("run", runDbId).bind("cfg", configId).bind("task", e.task()).bind("i", islKey).bind("o", oslKey)
          .bind("k", concKey).map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getString(2))).findOne();
      long evalId;
      if (old.isPresent()) {
        c.evalsDuplicate++;
        evalId = old.get().getKey();
        if (!old.get().getValue().equals(metrics)) {
          h.createUpdate("update eval_results set metrics = :m where id = :id").bind("m", metrics).bind("id", evalId).execute();
        }
      } else {
        c.evalsInserted++;
        evalId = h.createUpdate("insert into eval_results (workflow_run_id, config_id, task, date, isl, osl, conc, isl_key, "
                + "osl_key, conc_key, lm_eval_version, metrics) values (:run, :cfg, :task, :date, :isl, :osl, :conc, :i, :o, "
                + ":k, :v, :m)")
            .bind("run", runDbId).bind("cfg", configId).bind("task", e.task()).bind("date", date)
            .bind("isl", toInt(e.isl())).bind("osl", toInt(e.osl())).bind("conc", toInt(e.conc())).bind("i", islKey)
            .bind("o", oslKey).bind("k", concKey).bind("v", e.lmEvalVersion()).bind("m", metrics)
            .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
      }
      for (RunArtifacts.SampleFile sf : evalSamples.getOrDefault(e, List.of())) {
        if (!sf.task().equalsIgnoreCase(e.task())) {
          continue;
        }
        Set<String> have = new java.util.HashSet<>(h.createQuery("select doc_id from eval_samples where eval_result_id = :id")
            .bind("id", evalId).mapTo(String.class).list());
        for (JsonNode s : sf.lines()) {
          JsonNode doc = s.get("doc_id");
          if (doc == null || doc.isNull()) {
            continue;
          }
          String docId = doc.asText();
          if (have.add(docId)) {
            h.createUpdate("insert into eval_samples (eval_result_id, doc_id, sample) values (:id, :doc, :s)")
                .bind("id", evalId).bind("doc", docId).bind("s", Json.compact().writeValueAsString(s)).execute();
            c.samples++;
          }
        }
      }
    }
  }

  private void writeChangelog(Handle h, long runDbId, LocalDate date, List<JsonNode> changelogs, boolean appendOnly,
      Counts c) throws JsonProcessingException {
    for (JsonNode cl : changelogs) {
      String base = cl.path("base_ref").asText("");
      String head = cl.path("head_ref").asText("");
      ArrayNode keys = JsonNodeFactory.instance.arrayNode();
      List<String> descriptions = new ArrayList<>();
      String pr = null;
      for (JsonNode e : cl.path("entries")) {
        for (JsonNode k : e.has("config-keys") ? e.get("config-keys") : e.path("config_keys")) {
          keys.add(k.asText());
        }
        JsonNode d = e.get("description");
        if (d != null) {
          if (d.isArray()) {
            d.forEach(x -> descriptions.add(x.asText()));
          } else {
            descriptions.add(d.asText());
          }
        }
        JsonNode link = e.has("pr-link") ? e.get("pr-link") : e.get("pr_link");
        if (pr == null && link != null && !link.isNull()) {
          pr = link.asText();
        }
      }
      boolean present = h.createQuery("select count(*) from changelog_entries where workflow_run_id = :run and base_ref = :b and head_ref = :hd")
          .bind("run", runDbId).bind("b", base).bind("hd", head).mapTo(Long.class).one() > 0;
      if (!present) {
        h.createUpdate("insert into changelog_entries (workflow_run_id, date, base_ref, head_ref, config_keys, description, "
                + "pr_link, append_only) values (:run, :date, :b, :hd, :k, :d, :pr, :ao)")
            .bind("run", runDbId).bind("date", date).bind("b", base).bind("hd", head)
            .bind("k", Json.compact().writeValueAsString(keys)).bind("d", String.join("\n", descriptions))
            .bind("pr", pr).bind("ao", appendOnly).execute();
        c.changelog++;
      }
    }
  }

  /** Rows, rows with an image and the distinct images of one curve in this run's batch. */
  private static final class CurveSummary {
    long rows;
    long images;
    final java.util.TreeSet<String> distinct = new java.util.TreeSet<>();

    void add(String image) {
      rows++;
      if (image != null) {
        images++;
        distinct.add(image);
      }
    }
  }

  /** Content of a stored row that a re-ingest compares. */
  record RowContent(String metrics, String image, String workers, String reasons, String audit, boolean simulated,
      String serverEngine, String serverVersion, String clientVersion, String clientOverhead, String telemetryFlags) {

    /**
     * The reference keeps a server-log-derived {@code kv_cache_pool_tokens} when new metrics lack it.
     */
    RowContent keepingServerLogValue(RowContent old) throws JsonProcessingException {
      ObjectNode fresh = (ObjectNode) Json.mapper().readTree(metrics);
      JsonNode kept = Json.mapper().readTree(old.metrics()).get("kv_cache_pool_tokens");
      if (kept == null || fresh.has("kv_cache_pool_tokens")) {
        return this;
      }
      fresh.set("kv_cache_pool_tokens", kept);
      return new RowContent(Json.compact().writeValueAsString(fresh), image, workers, reasons, audit, simulated,
          serverEngine, serverVersion, clientVersion, clientOverhead, telemetryFlags);
    }
  }

  record StoredRow(long id, PointKey key, RowContent content) {}

  private static RowContent content(BenchmarkParams p, Provenance prov) throws JsonProcessingException {
    var w = Json.compact();
    return new RowContent(w.writeValueAsString(p.metrics()), p.image(),
        p.workers() == null ? null : w.writeValueAsString(p.workers()),
        p.powerInvalidReasons() == null ? null : w.writeValueAsString(p.powerInvalidReasons()),
        p.powerAudit() == null ? null : w.writeValueAsString(p.powerAudit()),
        prov.simulated(), prov.serverEngine(), prov.serverVersion(), prov.clientVersion(), prov.clientOverhead(),
        prov.telemetryFlags());
  }

  static Map<String, Object> typedMetrics(JsonNode metrics) {
    Map<String, Object> m = new HashMap<>();
    for (String k : TYPED_METRICS) {
      JsonNode v = metrics.get(k);
      m.put(k, v != null && v.isNumber() && Double.isFinite(v.doubleValue()) ? v.doubleValue() : null);
    }
    return m;
  }

  static Provenance provenance(JsonNode row) {
    JsonNode sim = row.get("simulated");
    boolean simulated = sim != null && (sim.asBoolean(false) || "true".equalsIgnoreCase(sim.asText()));
    String overhead = null;
    JsonNode o = row.get("client_overhead");
    if (o != null && !o.isNull()) {
      try {
        overhead = Json.compact().writeValueAsString(o);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    String flags = null;
    JsonNode f = row.get("telemetry_flags");
    if (f != null && f.isArray() && !f.isEmpty()) {
      flags = f.toString();
    }
    return new Provenance(simulated, text(row, "server_engine"), text(row, "server_version"), text(row, "client_version"),
        overhead, flags);
  }

  private static String text(JsonNode row, String key) {
    JsonNode v = row.get(key);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** The curve a point belongs to (migration 014's benchmark_curve_scope), as a JSON array. */
  static String curveKey(BenchmarkParams p) {
    ConfigParams c = p.config();
    boolean agentic = p.benchmarkType().equals(BenchmarkParams.AGENTIC_TRACES);
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    a.add(c.model()).add(c.hardware()).add(c.framework()).add(c.precision()).add(p.benchmarkType());
    if (p.isl() == null) {
      a.addNull();
    } else {
      a.add(p.isl());
    }
    if (p.osl() == null) {
      a.addNull();
    } else {
      a.add(p.osl());
    }
    a.add(agentic ? "" : c.specMethod()).add(!agentic && c.disagg()).add(agentic ? "" : p.offloadMode());
    return a.toString();
  }

  private static int key(Long v) {
    return v == null ? 0 : Math.toIntExact(v);
  }

  private static Integer toInt(Long v) {
    return v == null ? null : Math.toIntExact(v);
  }

  private static String skipsJson(SkipTracker t) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    ObjectNode s = o.putObject("skips");
    t.skips().forEach((k, v) -> {
      if (v != 0) {
        s.put(k.name(), v);
      }
    });
    ObjectNode u = o.putObject("unmapped");
    ArrayNode models = u.putArray("models");
    t.unmappedModels().forEach(models::add);
    ArrayNode hw = u.putArray("hardware");
    t.unmappedHws().forEach(hw::add);
    ArrayNode pr = u.putArray("precisions");
    t.unmappedPrecisions().forEach(pr::add);
    u.putArray("datasets");
    return o.toString();
  }

  static Optional<String> workflowText(JsonNode wf, String... keys) {
    if (wf == null) {
      return Optional.empty();
    }
    for (String k : keys) {
      JsonNode v = wf.get(k);
      if (v != null && !v.isNull() && !v.asText().isEmpty()) {
        return Optional.of(v.asText());
      }
    }
    return Optional.empty();
  }

  private static Optional<Integer> workflowInt(JsonNode wf, String key) {
    return workflowText(wf, key).map(Integer::parseInt);
  }

  private static Optional<LocalDate> parseDate(String s) {
    try {
      return Optional.of(s.length() >= 10 ? LocalDate.parse(s.substring(0, 10)) : LocalDate.parse(s));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<OffsetDateTime> parseTime(String s) {
    try {
      return Optional.of(OffsetDateTime.parse(s));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Config ids by natural key, loaded once per transaction; new configs are inserted. */
  static final class ConfigIds {
    private final Handle h;
    private final Map<String, Long> ids = new HashMap<>();

    ConfigIds(Handle h) {
      this.h = h;
      h.createQuery("select * from configs").map((rs, ctx) -> Map.entry(fromRow(rs).cacheKey(), rs.getLong("id")))
          .forEach(e -> ids.put(e.getKey(), e.getValue()));
    }

    long idOf(ConfigParams c) {
      Long id = ids.get(c.cacheKey());
      if (id != null) {
        return id;
      }
      long created = h.createUpdate("insert into configs (hardware, framework, model, precision, spec_method, disagg, "
              + "is_multinode, prefill_tp, prefill_ep, prefill_dp_attention, prefill_num_workers, decode_tp, decode_ep, "
              + "decode_dp_attention, decode_num_workers, num_prefill_gpu, num_decode_gpu) values (:hardware, :framework, "
              + ":model, :precision, :spec, :disagg, :multinode, :ptp, :pep, :pdp, :pw, :dtp, :dep, :ddp, :dw, :pg, :dg)")
          .bind("hardware", c.hardware()).bind("framework", c.framework()).bind("model", c.model())
          .bind("precision", c.precision()).bind("spec", c.specMethod()).bind("disagg", c.disagg())
          .bind("multinode", c.isMultinode()).bind("ptp", Math.toIntExact(c.prefillTp()))
          .bind("pep", Math.toIntExact(c.prefillEp())).bind("pdp", c.prefillDpAttn())
          .bind("pw", Math.toIntExact(c.prefillNumWorkers())).bind("dtp", Math.toIntExact(c.decodeTp()))
          .bind("dep", Math.toIntExact(c.decodeEp())).bind("ddp", c.decodeDpAttn())
          .bind("dw", Math.toIntExact(c.decodeNumWorkers())).bind("pg", Math.toIntExact(c.numPrefillGpu()))
          .bind("dg", Math.toIntExact(c.numDecodeGpu()))
          .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
      ids.put(c.cacheKey(), created);
      return created;
    }
  }

  /** A {@code configs} row as {@link ConfigParams}. */
  public static ConfigParams fromRow(java.sql.ResultSet rs) throws SQLException {
    return new ConfigParams(rs.getString("hardware"), rs.getString("framework"), rs.getString("model"),
        rs.getString("precision"), rs.getString("spec_method"), rs.getBoolean("disagg"), rs.getBoolean("is_multinode"),
        rs.getInt("prefill_tp"), rs.getInt("prefill_ep"), rs.getBoolean("prefill_dp_attention"),
        rs.getInt("prefill_num_workers"), rs.getInt("decode_tp"), rs.getInt("decode_ep"),
        rs.getBoolean("decode_dp_attention"), rs.getInt("decode_num_workers"), rs.getInt("num_prefill_gpu"),
        rs.getInt("num_decode_gpu"));
  }
}
