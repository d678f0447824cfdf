package io.infx.client;

import io.infx.client.metrics.LatencyStats;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/** The end-of-run table, laid out like the reference client's report. */
final class Summary {

  private Summary() {}

  static void print(PrintWriter out, ServeResult run, ServeMetrics m, MetricOptions mo) {
    out.println("============ Serving Benchmark Result ============");
    row(out, "Successful requests:", Integer.toString(m.completed()));
    row(out, "Failed requests:", Integer.toString(m.failed()));
    if (m.cancelled() + m.notSent() > 0) {
      row(out, "Cancelled / not sent:", m.cancelled() + " / " + m.notSent());
    }
    row(out, "Benchmark duration (s):", f2(m.durationSeconds()));
    row(out, "Total input tokens:", Long.toString(m.totalInputTokens()));
    row(out, "Total generated tokens:", Long.toString(m.totalOutputTokens()));
    row(out, "Request throughput (req/s):", f2(m.requestThroughput()));
    m.requestGoodput().ifPresent(g -> row(out, "Request goodput (req/s):", f2(g)));
    row(out, "Output token throughput (tok/s):", f2(m.outputThroughput()));
    row(out, "Total Token throughput (tok/s):", f2(m.totalTokenThroughput()));
    row(out, "Peak concurrent requests:", Integer.toString(m.peakConcurrency()));
    ClientStats cs = run.clientStats();
    row(out, "Client CPU (% of one core):", String.format(Locale.ROOT, "%.0f", cs.cpuPercent()));
    row(out, "Client GC (collections / ms):", cs.gcCollections() + " / " + cs.gcMillis());
    if (cs.allocatedBytes() >= 0 && m.sent() > 0) {
      row(out, "Client allocation per request (KB):",
          String.format(Locale.ROOT, "%.1f", cs.allocatedBytes() / 1024.0 / m.sent()));
    }
    if (m.queueWait().percentileMillis(99).orElse(0) >= 1) {
      // open loop with a ceiling and a backlog: the latencies below start at the send, not at
      // the intended time (peers.md §3), so say how long requests waited and how late they left
      row(out, "Median / P99 queue wait (ms):", f2(m.queueWait().medianMillis().getAsDouble())
          + " / " + f2(m.queueWait().percentileMillis(99).getAsDouble()));
    }
    if (m.lateness().percentileMillis(99).orElse(0) >= 1) {
      row(out, "Median / P99 send lateness (ms):", f2(m.lateness().medianMillis().getAsDouble())
          + " / " + f2(m.lateness().percentileMillis(99).getAsDouble()));
    }
    if (m.resends() > 0) {
      row(out, "Re-sent (never left; not failures):", Integer.toString(m.resends()));
    }
    InputLengthCheck ic = m.inputLengthCheck();
    if (ic.verdict() == InputLengthCheck.Verdict.WARN || ic.verdict() == InputLengthCheck.Verdict.FAIL) {
      out.println((ic.verdict() == InputLengthCheck.Verdict.FAIL ? "FAIL" : "WARNING")
          + ": input lengths: " + ic.message());
    }
    section(out, "ttft", "Time to First Token", "TTFT", m.ttft(), mo);
    section(out, "tpot", "Time per Output Token (excl. 1st token)", "TPOT", m.tpot(), mo);
    section(out, "itl", "Inter-token Latency", "ITL", m.itl(), mo);
    perTokenItl(out, m, mo);
    section(out, "e2el", "End-to-end Latency", "E2EL", m.e2el(), mo);
    if (m.failed() > 0) {
      out.println(center("Failures"));
      for (Map.Entry<FailureClass, Integer> e : m.failuresByClass().entrySet()) {
        row(out, e.getKey().label() + ":", Integer.toString(e.getValue()));
      }
      m.firstFailures().stream().findFirst().ifPresent(f ->
          out.println("First: [" + f.kind().label() + "] " + f.message()));
    }
    out.println("==================================================");
    out.flush();
  }

  /**
   * Per-token ITL (infx view) after the reference's per-chunk ITL, when it differs from it (some
   * chunk carried other than one token) or when its policy is not from the server's usage; with
   * the policy and the tokens-per-chunk counts in the latter case.
   */
  private static void perTokenItl(PrintWriter out, ServeMetrics m, MetricOptions mo) {
    if (!mo.percentileMetrics().contains("itl") || m.itlPolicy().isEmpty()) {
      return;
    }
    ItlPolicy policy = m.itlPolicy().get();
    boolean multi = m.tokensPerChunk().keySet().stream().anyMatch(k -> k != 1);
    if (policy.fromUsage() && !multi) {
      return; // one token per chunk, proven by usage: identical to the ITL above
    }
    section(out, "itl", "Per-token ITL (infx, " + policy.label() + ")", "per-token ITL",
        m.itlPerToken(), mo);
    if (!policy.fromUsage()) {
      StringBuilder by = new StringBuilder();
      m.itlPolicies().forEach((p, n) -> by.append(by.length() == 0 ? "" : ", ")
          .append(p.label()).append(' ').append(n));
      row(out, "ITL attribution (requests):", by.toString());
      if (!m.tokensPerChunk().isEmpty()) {
        StringBuilder k = new StringBuilder();
        m.tokensPerChunk().forEach((tokens, chunks) -> k.append(k.length() == 0 ? "" : ", ")
            .append(tokens).append(':').append(chunks));
        row(out, "Tokens per chunk (tokens:chunks):", k.toString());
      }
      if (policy == ItlPolicy.PER_CHUNK) {
        out.println("note: per-chunk ITL: no usage deltas and no tokenizer count; use"
            + " --continuous-usage-stats or a --tokenizer matching the server");
      }
    }
  }

  /** One latency block as benchmark_serving prints it: 0.00 for an empty sample, like the reference. */
  private static void section(PrintWriter out, String key, String title, String abbr, LatencyStats s,
      MetricOptions mo) {
    if (!mo.percentileMetrics().contains(key)) {
      return;
    }
    out.println(center(title));
    row(out, "Mean " + abbr + " (ms):", f2(s.meanMillis().orElse(0)));
    row(out, "Median " + abbr + " (ms):", f2(s.medianMillis().orElse(0)));
    for (double p : mo.metricPercentiles()) {
      row(out, "P" + RawResult.percentileLabel(p) + " " + abbr + " (ms):",
          f2(s.percentileMillis(p).orElse(0)));
    }
  }

  private static String center(String title) {
    int w = 50;
    int pad = Math.max(0, w - title.length());
    return "-".repeat(pad / 2) + title + "-".repeat(pad - pad / 2);
  }

  private static void row(PrintWriter out, String label, String value) {
    out.println(String.format(Locale.ROOT, "%-40s %s", label, value));
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
