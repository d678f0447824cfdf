package io.infx.run;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.results.SloTerm;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code search.json}: the search as data, for tools and the dashboard — the SLO's typed terms,
 * the settings, and per configuration its grid, every probe (load, verdict, per-term values per
 * repetition, ratio, noise band, point), the best load with the bracket, the stop reason and the
 * anomalies; then the frontier. Rewritten after every probe (a configuration still being searched
 * has {@code "status": "searching"} and the probes so far).
 *
 * <p>Units are the aggregate's: latencies in seconds, interactivity in tok/s/user, goodput a share,
 * throughput in tok/s/GPU.
 */
final class SearchRecord {

  /** Version of the file's shape. */
  static final int SCHEMA = 1;

  private SearchRecord() {}

  static ObjectNode toJson(SearchOptions options, SearchPlan plan, List<ConfigurationSearch> results,
      Map<String, List<BoundarySearch.Probe>> inProgress, List<SearchOutcome.FrontierPoint> frontier, String server) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("schema", "infx.search/" + SCHEMA);
    o.put("slo", options.slo().toString());
    ArrayNode terms = o.putArray("terms");
    for (SloTerm t : options.slo().terms()) {
      ObjectNode n = terms.addObject();
      n.put("text", t.text());
      n.put("metric", t.metric().stem());
      n.put("statistic", t.statistic().label());
      n.put("comparison", t.comparison().symbol());
      n.put("bound", t.bound());
      n.put("unit", t.metric().latency() ? "s" : t.metric() == SloTerm.Metric.GOODPUT ? "share" : "tok/s/user");
      n.put("key", t.key());
    }
    o.put("axis", options.axis().label());
    BoundarySearch.Settings s = options.settings();
    ObjectNode st = o.putObject("settings");
    st.put("strategy", s.strategy().name().toLowerCase(Locale.ROOT));
    st.put("max_probes", s.maxProbes());
    st.put("max_repeats", s.maxRepeats());
    st.put("noise_band", s.noiseBand());
    st.put("confidence", s.confidence());
    st.put("growth", s.growth());
    st.put("cliff_factor", s.cliffFactor());
    o.put("server", server);
    o.put("simulated", server.startsWith("SIMULATED"));
    ArrayNode cs = o.putArray("configurations");
    for (SearchPlan.Configuration c : plan.configurations()) {
      ConfigurationSearch r = results.stream().filter(x -> x.configuration().id().equals(c.id())).findFirst().orElse(null);
      ObjectNode n = cs.addObject();
      n.put("configuration", c.id());
      n.put("pattern", c.pattern());
      n.put("label", r == null ? c.pattern() : r.label());
      if (r != null && !r.workload().isEmpty()) {
        n.put("workload", r.workload());
      }
      n.put("runner", c.template().runner());
      ObjectNode g = n.putObject("range");
      g.put("lo", c.grid().lo());
      g.put("hi", c.grid().hi());
      g.put("step", c.grid().step());
      if (r == null) {
        List<BoundarySearch.Probe> soFar = inProgress.get(c.id());
        n.put("status", soFar == null ? "pending" : "searching");
        probes(n.putArray("probes"), soFar == null ? List.of() : soFar);
        continue;
      }
      n.put("status", r.error().isPresent() ? "error" : "done");
      r.error().ifPresent(e -> n.put("error", e));
      n.put("server_starts", r.serverStarts());
      r.server().ifPresent(x -> n.put("server", x));
      if (r.trace().isPresent()) {
        BoundarySearch.Trace t = r.trace().get();
        n.put("stop", t.stop().name().toLowerCase(Locale.ROOT));
        number(n, "best", t.best().isPresent() ? t.best().getAsDouble() : Double.NaN);
        number(n, "first_non_pass", t.firstNonPass().isPresent() ? t.firstNonPass().getAsDouble() : Double.NaN);
        n.put("bracket", r.bracket());
        number(n, "tput_per_gpu", r.tputPerGpu().orElse(Double.NaN));
        number(n, "interactivity", r.interactivity().orElse(Double.NaN));
        r.bestProbe().ifPresent(b -> n.put("best_result_filename", b.measurement().point()));
        n.put("probes_used", t.probes().size());
        n.put("measurements", t.measurements());
        n.put("monotone", t.monotone());
        ArrayNode an = n.putArray("anomalies");
        for (BoundarySearch.Anomaly a : t.anomalies()) {
          ObjectNode x = an.addObject();
          x.put("kind", a.kind().name().toLowerCase(Locale.ROOT));
          a.loads().forEach(x.putArray("loads")::add);
          x.put("message", a.message());
        }
        probes(n.putArray("probes"), t.probes());
      } else {
        probes(n.putArray("probes"), inProgress.getOrDefault(c.id(), List.of()));
      }
    }
    ArrayNode fr = o.putArray("frontier");
    for (SearchOutcome.FrontierPoint f : frontier) {
      ObjectNode x = fr.addObject();
      x.put("configuration", f.configuration());
      x.put("label", f.label());
      x.put("load", f.load());
      x.put("tput_per_gpu", f.tputPerGpu());
      x.put("interactivity", f.interactivity());
      x.put("result_filename", f.resultFilename());
    }
    ArrayNode sk = o.putArray("skipped");
    for (PlannedPoint p : plan.skipped()) {
      sk.addObject().put("result_filename", p.resultFilename()).put("reason", p.note());
    }
    return o;
  }

  private static void probes(ArrayNode out, List<BoundarySearch.Probe> probes) {
    for (BoundarySearch.Probe p : probes) {
      ObjectNode x = out.addObject();
      x.put("order", p.order());
      x.put("load", p.load());
      x.put("verdict", p.verdict().name().toLowerCase(Locale.ROOT));
      number(x, "ratio", p.ratio());
      x.put("repetitions", p.repetitions());
      x.put("measured_before", p.measurement().measuredBefore());
      x.put("result_filename", p.measurement().point());
      number(x, "tput_per_gpu", p.measurement().tputPerGpu());
      number(x, "interactivity", p.measurement().interactivity());
      p.failure().ifPresent(f -> x.put("failure", f));
      ArrayNode ts = x.putArray("terms");
      for (BoundarySearch.TermReading r : p.readings()) {
        ObjectNode t = ts.addObject();
        t.put("term", r.term().text());
        t.put("key", r.term().key());
        r.samples().forEach(t.putArray("values")::add);
        number(t, "mean", r.mean());
        number(t, "ratio", r.ratio());
        if (!Double.isNaN(r.bandLow())) {
          ArrayNode band = t.putArray("noise_band");
          band.add(r.bandLow());
          band.add(r.bandHigh());
        }
        t.put("verdict", r.verdict().name().toLowerCase(Locale.ROOT));
      }
    }
  }

  /** A number, or null when it is not finite (JSON has no NaN or infinity). */
  private static void number(ObjectNode o, String key, double v) {
    if (Double.isFinite(v)) {
      o.put(key, v);
    } else {
      o.putNull(key);
    }
  }
}
