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

  record Row(long id, String curve, long configId, String type, int islKey, int oslKey, String offload,
      String fingerprint, int conc, String image, String model, long runDbId, String runId, int attempt,
      LocalDate date, OffsetDateTime startedAt, boolean appendOnly) {}

  private record RunGroup(long runDbId, LocalDate date, OffsetDateTime startedAt, boolean appendOnly,
      Set<String> images, boolean allImagesPresent, List<Row> rows) {

    String singleImage() {
      return allImagesPresent && images.size() == 1 ? images.iterator().next() : null;
    }
  }

  /** Rebuilds the view for the given curves (all curves when {@code curves} is null). */
  public static void refresh(Handle h, Collection<String> curves) {
    Map<String, Integer> highestAttempt = new HashMap<>();
    h.createQuery("select run_id, max(run_attempt) as a from workflow_runs group by run_id")
        .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getInt(2)))
        .forEach(e -> highestAttempt.put(e.getKey(), e.getValue()));
    List<Row> rows = new ArrayList<>();
    String select = "select br.id, br.curve_key, br.config_id, br.benchmark_type, br.isl_key, br.osl_key, br.offload_mode, "
        + "br.fingerprint_key, br.conc, br.image, c.model, wr.id as run_db_id, wr.run_id, wr.run_attempt, wr.date as run_date, "
        + "wr.run_started_at, wr.append_only from benchmark_results br join workflow_runs wr on wr.id = br.workflow_run_id "
        + "join configs c on c.id = br.config_id where br.error is null and br.simulated = false";
    if (curves == null) {
      h.execute("delete from latest_benchmarks");
      h.createQuery(select).map(LatestView::row).forEach(rows::add);
    } else {
      List<String> list = new ArrayList<>(new LinkedHashSet<>(curves));
      for (int i = 0; i < list.size(); i += 500) {
        List<String> chunk = list.subList(i, Math.min(list.size(), i + 500));
        h.createUpdate("delete from latest_benchmarks where curve_key in (<curves>)").bindList("curves", chunk).execute();
        h.createQuery(select + " and br.curve_key in (<curves>)").bindList("curves", chunk).map(LatestView::row)
            .forEach(rows::add);
      }
    }
    Map<String, Map<Long, RunGroup>> byCurve = new LinkedHashMap<>();
    for (Row r : rows) {
      if (!Objects.equals(highestAttempt.get(r.runId()), r.attempt())) {
        continue;
      }
      RunGroup g = byCurve.computeIfAbsent(r.curve(), k -> new LinkedHashMap<>()).computeIfAbsent(r.runDbId(),
          k -> new RunGroup(r.runDbId(), r.date(), r.startedAt(), r.appendOnly(), new LinkedHashSet<>(), true, new ArrayList<>()));
      if (r.image() == null && g.allImagesPresent()) {
        g = new RunGroup(g.runDbId(), g.date(), g.startedAt(), g.appendOnly(), g.images(), false, g.rows());
        byCurve.get(r.curve()).put(r.runDbId(), g);
      }
      if (r.image() != null) {
        g.images().add(r.image());
      }
      g.rows().add(r);
    }
    Comparator<RunGroup> newestFirst = Comparator.comparing(RunGroup::date, Comparator.reverseOrder())
        .thenComparing(RunGroup::startedAt, Comparator.nullsLast(Comparator.reverseOrder()))
        .thenComparing(RunGroup::runDbId, Comparator.reverseOrder());
    PreparedBatch insert = h.prepareBatch("insert into latest_benchmarks (benchmark_result_id, curve_key, model, "
        + "snapshot_date, snapshot_workflow_run_id) values (:id, :curve, :model, :date, :run)");
    for (Map.Entry<String, Map<Long, RunGroup>> curve : byCurve.entrySet()) {
      List<RunGroup> ranked = new ArrayList<>(curve.getValue().values());
      ranked.sort(newestFirst);
      RunGroup root = ranked.get(0);
      List<RunGroup> chain = new ArrayList<>();
      chain.add(root);
      String rootImage = root.singleImage();
      RunGroup current = root;
      for (int i = 1; i < ranked.size(); i++) {
        RunGroup older = ranked.get(i);
        if (current.appendOnly() && rootImage != null && rootImage.equals(current.singleImage())
            && rootImage.equals(older.singleImage())) {
          chain.add(older);
          current = older;
        } else {
          break;
        }
      }
      Set<List<Object>> taken = new LinkedHashSet<>();
      for (RunGroup g : chain) {
        for (Row r : g.rows()) {
          List<Object> point = List.of(r.configId(), r.type(), r.islKey(), r.oslKey(), r.offload(), r.fingerprint(), r.conc());
          if (taken.add(point)) {
            insert.bind("id", r.id()).bind("curve", r.curve()).bind("model", r.model()).bind("date", root.date())
                .bind("run", root.runDbId()).add();
            if (insert.size() >= 2000) {
              insert.execute();
            }
          }
        }
      }
    }
    if (insert.size() > 0) {
      insert.execute();
    }
  }

  private static Row row(java.sql.ResultSet rs, org.jdbi.v3.core.statement.StatementContext ctx) throws java.sql.SQLException {
    return new Row(rs.getLong("id"), rs.getString("curve_key"), rs.getLong("config_id"), rs.getString("benchmark_type"),
        rs.getInt("isl_key"), rs.getInt("osl_key"), rs.getString("offload_mode"), rs.getString("fingerprint_key"),
        rs.getInt("conc"), rs.getString("image"), rs.getString("model"), rs.getLong("run_db_id"), rs.getString("run_id"),
        rs.getInt("run_attempt"), rs.getObject("run_date", LocalDate.class),
        rs.getObject("run_started_at", OffsetDateTime.class), rs.getBoolean("append_only"));
  }
}
