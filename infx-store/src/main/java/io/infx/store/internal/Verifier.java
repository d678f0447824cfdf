package io.infx.store.internal;

import io.infx.store.VerifyReport;
import io.infx.store.VerifyThresholds;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.jdbi.v3.core.Handle;

/**
 * {@code infx db verify} (the reference's {@code verify-db.ts} plus thresholds): row counts,
 * distinct dimension values, success/error totals, date range, ISL/OSL combinations, coverage of the
 * charted metrics, run-stats coverage, the latest view's size, and a SHA-256 checksum of the stored
 * content by natural key. Every line is sorted and free of ids, timestamps and timings, so two stores
 * holding the same content — an embedded file and PostgreSQL — print identical reports.
 */
public final class Verifier {

  private Verifier() {}

  static final List<String> TABLES = List.of("configs", "workflow_runs", "benchmark_results", "latest_benchmarks",
      "run_stats", "eval_results", "eval_samples", "changelog_entries", "availability");

  public static VerifyReport verify(Handle h, VerifyThresholds limits) {
    List<String> lines = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    lines.add("schema " + h.createQuery("select version from infx_schema_history where success = true "
        + "order by installed_rank desc limit 1").mapTo(String.class).findOne().orElse("none"));
    for (String t : TABLES) {
      // Table names come from the fixed list above, never from input.
      lines.add("rows " + t + " " + h.createQuery("select count(*) from " + t).mapTo(Long.class).one());
    }
    long ok = h.createQuery("select count(*) from benchmark_results where error is null").mapTo(Long.class).one();
    long errors = h.createQuery("select count(*) from benchmark_results where error is not null").mapTo(Long.class).one();
    long simulated = h.createQuery("select count(*) from benchmark_results where simulated = true").mapTo(Long.class).one();
    lines.add("benchmarks success " + ok + " error " + errors + " simulated " + simulated);
    lines.add("dates " + h.createQuery("select min(date) as lo, max(date) as hi from benchmark_results")
        .map((rs, ctx) -> dateOrDash(rs.getObject("lo", java.time.LocalDate.class)) + " "
            + dateOrDash(rs.getObject("hi", java.time.LocalDate.class))).one());
    for (String col : List.of("hardware", "framework", "model", "precision", "spec_method", "disagg")) {
      // Column names come from the fixed list above, never from input.
      List<String> values = h.createQuery("select c." + col + " as v, count(*) as n from benchmark_results br "
              + "join configs c on c.id = br.config_id group by c." + col)
          .map((rs, ctx) -> String.valueOf(rs.getObject("v")) + "=" + rs.getLong("n")).list();
      lines.add("distinct " + col + " " + sorted(values));
    }
    List<String> combos = h.createQuery("select benchmark_type, isl_key, osl_key, count(*) as n from benchmark_results "
            + "group by benchmark_type, isl_key, osl_key")
        .map((rs, ctx) -> rs.getString(1).equals("agentic_traces") ? "agentic=" + rs.getLong(4)
            : rs.getInt(2) + "/" + rs.getInt(3) + "=" + rs.getLong(4)).list();
    lines.add("isl_osl " + sorted(combos));
    for (String m : Ingestor.CHARTED_METRICS) {
      long have = h.createQuery("select count(*) from benchmark_results where error is null and " + m + " is not null")
          .mapTo(Long.class).one();
      double frac = ok == 0 ? 1 : (double) have / ok;
      lines.add(String.format(Locale.ROOT, "coverage %s %d/%d %.1f%%", m, have, ok, 100 * frac));
      if (ok > 0 && frac < limits.minCoverage()) {
        failures.add(String.format(Locale.ROOT, "coverage of %s is %.1f%%, below %.1f%%", m, 100 * frac, 100 * limits.minCoverage()));
      }
    }
    long runs = h.createQuery("select count(distinct run_id) from workflow_runs").mapTo(Long.class).one();
    long statRuns = h.createQuery("select count(distinct workflow_run_id) from run_stats").mapTo(Long.class).one();
    List<String> stats = h.createQuery("select hardware, sum(n_success), sum(total) from run_stats group by hardware")
        .map((rs, ctx) -> rs.getString(1) + "=" + rs.getLong(2) + "/" + rs.getLong(3)).list();
    lines.add("run_stats runs " + statRuns + "/" + runs + " " + sorted(stats));
    long curves = h.createQuery("select count(distinct curve_key) from latest_benchmarks").mapTo(Long.class).one();
    lines.add("latest curves " + curves);
    lines.add("checksum sha256:" + checksum(h));
    if (ok < limits.minBenchmarkRows()) {
      failures.add("successful benchmark rows " + ok + " < " + limits.minBenchmarkRows());
    }
    long all = ok + errors;
    if (all > 0 && (double) errors / all > limits.maxErrorRate()) {
      failures.add(String.format(Locale.ROOT, "error rate %.1f%% above %.1f%%", 100.0 * errors / all, 100 * limits.maxErrorRate()));
    }
    return new VerifyReport(lines, failures);
  }

  private static String dateOrDash(java.time.LocalDate d) {
    return d == null ? "-" : d.toString();
  }

  private static String sorted(List<String> values) {
    List<String> s = new ArrayList<>(values);
    s.sort(null);
    return s.isEmpty() ? "-" : String.join(" ", s);
  }

  /** SHA-256 over every stored row by natural key (ids and ingest order do not matter). */
  static String checksum(Handle h) {
    List<String> lines = new ArrayList<>();
    h.createQuery("select * from workflow_runs").map((rs, ctx) -> "run|" + rs.getString("run_id") + "|"
        + rs.getInt("run_attempt") + "|" + rs.getString("source") + "|" + rs.getObject("date", java.time.LocalDate.class)
        + "|" + rs.getBoolean("append_only") + "|" + rs.getString("name") + "|" + rs.getString("html_url") + "|"
        + rs.getString("skips")).forEach(lines::add);
    String cfg = "c.hardware, c.framework, c.model, c.precision, c.spec_method, c.disagg, c.is_multinode, c.prefill_tp, "
        + "c.prefill_ep, c.prefill_dp_attention, c.prefill_num_workers, c.decode_tp, c.decode_ep, c.decode_dp_attention, "
        + "c.decode_num_workers, c.num_prefill_gpu, c.num_decode_gpu";
    h.createQuery("select br.*, wr.run_id, wr.run_attempt, " + cfg + ", (select count(*) from latest_benchmarks lb "
            + "where lb.benchmark_result_id = br.id) as latest from benchmark_results br join configs c on c.id = br.config_id "
            + "join workflow_runs wr on wr.id = br.workflow_run_id")
        .map((rs, ctx) -> "bmk|" + rs.getString("run_id") + "|" + rs.getInt("run_attempt") + "|"
            + Ingestor.fromRow(rs).cacheKey() + "|" + rs.getString("benchmark_type") + "|" + rs.getInt("isl_key") + "|"
            + rs.getInt("osl_key") + "|" + rs.getInt("conc") + "|" + rs.getString("offload_mode") + "|"
            + rs.getString("fingerprint_key") + "|" + rs.getObject("date", java.time.LocalDate.class) + "|"
            + rs.getString("image") + "|" + rs.getString("metrics") + "|" + rs.getString("error") + "|"
            + rs.getString("workers") + "|" + rs.getString("power_invalid_reasons") + "|" + rs.getString("power_audit")
            + "|" + rs.getBoolean("simulated") + "|" + rs.getString("server_engine") + "|" + rs.getString("server_version")
            + "|" + rs.getString("client_version") + "|" + rs.getString("client_overhead") + "|latest=" + rs.getLong("latest"))
        .forEach(lines::add);
    h.createQuery("select rs.hardware, rs.n_success, rs.total, wr.run_id, wr.run_attempt from run_stats rs "
            + "join workflow_runs wr on wr.id = rs.workflow_run_id")
        .map((rs, ctx) -> "stats|" + rs.getString(4) + "|" + rs.getInt(5) + "|" + rs.getString(1) + "|" + rs.getInt(2)
            + "|" + rs.getInt(3)).forEach(lines::add);
    h.createQuery("select er.*, wr.run_id, wr.run_attempt, " + cfg + ", (select count(*) from eval_samples s "
            + "where s.eval_result_id = er.id) as samples from eval_results er join configs c on c.id = er.config_id "
            + "join workflow_runs wr on wr.id = er.workflow_run_id")
        .map((rs, ctx) -> "eval|" + rs.getString("run_id") + "|" + rs.getInt("run_attempt") + "|"
            + Ingestor.fromRow(rs).cacheKey() + "|" + rs.getString("task") + "|" + rs.getInt("isl_key") + "|"
            + rs.getInt("osl_key") + "|" + rs.getInt("conc_key") + "|" + rs.getString("lm_eval_version") + "|"
            + rs.getString("metrics") + "|samples=" + rs.getLong("samples")).forEach(lines::add);
    h.createQuery("select ce.base_ref, ce.head_ref, ce.config_keys, ce.description, ce.pr_link, wr.run_id, wr.run_attempt "
            + "from changelog_entries ce join workflow_runs wr on wr.id = ce.workflow_run_id")
        .map((rs, ctx) -> "changelog|" + rs.getString(6) + "|" + rs.getInt(7) + "|" + rs.getString(1) + "|"
            + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4) + "|" + rs.getString(5)).forEach(lines::add);
    lines.sort(null);
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      for (String l : lines) {
        d.update(l.getBytes(StandardCharsets.UTF_8));
        d.update((byte) '\n');
      }
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
