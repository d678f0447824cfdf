package io.infx.store.internal;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The latest view with the reference's append-only chaining (InferenceX-app migrations 011/014/015,
 * kept as is): successful real (not simulated) rows of each run's highest attempt, grouped by curve
 * (model, hardware, framework, precision, benchmark type, ISL, OSL, spec method, disagg, offload
 * mode — the last three blanked for agentic rows); runs ranked per curve by date, start time (nulls
 * last) and run row id, newest first; from the newest run, older runs are chained while the current
 * one is append-only and both carry exactly one image, equal to the newest run's; the newest chained
 * run wins each (config, type, ISL, OSL, offload, fingerprint, conc) point. Materialized in the
 * {@code latest_benchmarks} table, rebuilt per touched curve inside the ingest's transaction (an
 * embedded database has no concurrently refreshed materialized view).
 */
public final class LatestView {

  private LatestView() {}

  private record Row(long id, long configId, String type, int islKey, int oslKey, String offload, String fingerprint,
      int conc, String model) {}

  /** One run's successful real rows on one curve, summarized (what the chaining rule reads). */
  private record CurveRun(String curve, long runDbId, String runId, int attempt, LocalDate date,
      OffsetDateTime startedAt, boolean appendOnly, long rows, long imagesPresent, long distinctImages, String image) {

    /** The run's image when it has exactly one and every row carries it, else null. */
    String singleImage() {
      return imagesPresent == rows && distinctImages == 1 ? image : null;
    }
  }

  private static final String CURVE_RUNS = "select cr.curve_key, cr.workflow_run_id, wr.run_id, wr.run_attempt, "
      + "wr.date as run_date, wr.run_started_at, wr.append_only, cr.n, cr.images, cr.distinct_images, cr.image "
      + "from curve_runs cr join workflow_runs wr on wr.id = cr.workflow_run_id";

  /**
   * Recomputes the {@code curve_runs} summary of one (curve, run) from its benchmark rows; called by
   * ingest for every (curve, run) it wrote before {@link #refresh}.
   */
  public static void summarize(Handle h, String curve, long runDbId) {
    h.createUpdate("delete from curve_runs where curve_key = :curve and workflow_run_id = :run")
        .bind("curve", curve).bind("run", runDbId).execute();
    h.createUpdate("insert into curve_runs (curve_key, workflow_run_id, n, images, distinct_images, image) "
            + "select curve_key, workflow_run_id, count(*), count(image), count(distinct image), min(image) "
            + "from benchmark_results where curve_key = :curve and workflow_run_id = :run and error is null "
            + "and simulated = false group by curve_key, workflow_run_id")
        .bind("curve", curve).bind("run", runDbId).execute();
  }

  /**
   * Rebuilds the view for the given curves (all curves when {@code curves} is null). The chaining
   * is decided on per-(curve, run) summaries computed by the database; only the rows of the chosen
   * runs are then copied, in SQL when a curve's snapshot is one run.
   */
  public static void refresh(Handle h, Collection<String> curves) {
    Map<String, Integer> highestAttempt = new HashMap<>();
    h.createQuery("select run_id, max(run_attempt) as a from workflow_runs group by run_id")
        .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getInt(2)))
        .forEach(e -> highestAttempt.put(e.getKey(), e.getValue()));
    List<CurveRun> runs = new ArrayList<>();
    if (curves == null) {
      h.execute("delete from latest_benchmarks");
      h.createQuery(CURVE_RUNS).map(LatestView::curveRun).forEach(runs::add);
    } else {
      // One indexed equality lookup per curve (H2 does not use an index for long IN lists).
      PreparedBatch delete = h.prepareBatch("delete from latest_benchmarks where curve_key = :curve");
      for (String curve : new LinkedHashSet<>(curves)) {
        delete.bind("curve", curve).add();
        h.createQuery(CURVE_RUNS + " where cr.curve_key = :curve").bind("curve", curve)
            .map(LatestView::curveRun).forEach(runs::add);
      }
      if (delete.size() > 0) {
        delete.execute();
      }
    }
    Map<String, List<CurveRun>> byCurve = new LinkedHashMap<>();
    for (CurveRun r : runs) {
      if (Objects.equals(highestAttempt.get(r.runId()), r.attempt())) {
        byCurve.computeIfAbsent(r.curve(), k -> new ArrayList<>()).add(r);
      }
    }
    Comparator<CurveRun> newestFirst = Comparator.comparing(CurveRun::date, Comparator.reverseOrder())
        .thenComparing(CurveRun::startedAt, Comparator.nullsLast(Comparator.reverseOrder()))
        .thenComparing(CurveRun::runDbId, Comparator.reverseOrder());
    PreparedBatch copyRun = h.prepareBatch("insert into latest_benchmarks (benchmark_result_id, curve_key, model, "
        + "snapshot_date, snapshot_workflow_run_id) select br.id, br.curve_key, c.model, :date, :root from benchmark_results br "
        + "join configs c on c.id = br.config_id where br.curve_key = :curve and br.workflow_run_id = :run "
        + "and br.error is null and br.simulated = false");
    PreparedBatch insert = h.prepareBatch("insert into latest_benchmarks (benchmark_result_id, curve_key, model, "
        + "snapshot_date, snapshot_workflow_run_id) values (:id, :curve, :model, :date, :root)");
    for (Map.Entry<String, List<CurveRun>> curve : byCurve.entrySet()) {
      List<CurveRun> ranked = curve.getValue();
      ranked.sort(newestFirst);
      CurveRun root = ranked.get(0);
      List<CurveRun> chain = new ArrayList<>();
      chain.add(root);
      String rootImage = root.singleImage();
      CurveRun current = root;
      for (int i = 1; i < ranked.size(); i++) {
        CurveRun older = ranked.get(i);
        if (current.appendOnly() && rootImage != null && rootImage.equals(current.singleImage())
            && rootImage.equals(older.singleImage())) {
          chain.add(older);
          current = older;
        } else {
          break;
        }
      }
      if (chain.size() == 1) {
        copyRun.bind("date", root.date()).bind("root", root.runDbId()).bind("curve", curve.getKey())
            .bind("run", root.runDbId()).add();
        continue;
      }
      // An append-only chain: the newest chained run wins each point.
      Set<List<Object>> taken = new LinkedHashSet<>();
      for (CurveRun g : chain) {
        List<Row> rows = h.createQuery("select br.id, br.config_id, br.benchmark_type, br.isl_key, br.osl_key, "
                + "br.offload_mode, br.fingerprint_key, br.conc, c.model from benchmark_results br join configs c "
                + "on c.id = br.config_id where br.curve_key = :curve and br.workflow_run_id = :run "
                + "and br.error is null and br.simulated = false order by br.id")
            .bind("curve", curve.getKey()).bind("run", g.runDbId())
            .map((rs, ctx) -> new Row(rs.getLong("id"), rs.getLong("config_id"), rs.getString("benchmark_type"),
                rs.getInt("isl_key"), rs.getInt("osl_key"), rs.getString("offload_mode"), rs.getString("fingerprint_key"),
                rs.getInt("conc"), rs.getString("model")))
            .list();
        for (Row r : rows) {
          if (taken.add(List.of(r.configId(), r.type(), r.islKey(), r.oslKey(), r.offload(), r.fingerprint(), r.conc()))) {
            insert.bind("id", r.id()).bind("curve", curve.getKey()).bind("model", r.model()).bind("date", root.date())
                .bind("root", root.runDbId()).add();
          }
        }
      }
    }
    if (copyRun.size() > 0) {
      copyRun.execute();
    }
    if (insert.size() > 0) {
      insert.execute();
    }
  }

  private static CurveRun curveRun(java.sql.ResultSet rs, org.jdbi.v3.core.statement.StatementContext ctx)
      throws java.sql.SQLException {
    return new CurveRun(rs.getString("curve_key"), rs.getLong("workflow_run_id"), rs.getString("run_id"),
        rs.getInt("run_attempt"), rs.getObject("run_date", LocalDate.class),
        rs.getObject("run_started_at", OffsetDateTime.class), rs.getBoolean("append_only"), rs.getLong("n"),
        rs.getLong("images"), rs.getLong("distinct_images"), rs.getString("image"));
  }
}
