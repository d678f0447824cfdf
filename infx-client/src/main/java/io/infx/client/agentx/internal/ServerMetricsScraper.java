package io.infx.client.agentx.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.io.BoundedHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes Prometheus endpoints over the profiling window into AIPerf's
 * {@code server_metrics_export.json} shape (spec {@code agentx.md} §3.4): per series, counters get
 * {@code total} = end − start of the window, gauges {@code max}/{@code avg} over 1-second samples.
 * Counter names lose their {@code _total} suffix, as in AIPerf's export. Scrapes run on their own
 * thread; an unreachable endpoint only lowers {@code endpoints_successful}. A scrape has 10 s and
 * 16 MiB for its answer (an engine's exposition is tens to hundreds of KiB).
 */
final class ServerMetricsScraper {

  private static final Logger LOG = LoggerFactory.getLogger(ServerMetricsScraper.class);
  private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(10);
  private static final int MAX_BODY = 16 << 20;

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "infx-agentx-metrics");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Series> series = new LinkedHashMap<>();
  private final Map<URI, Boolean> reached = new HashMap<>();
  private volatile boolean started;
  private volatile boolean stopped;

  ServerMetricsScraper(List<URI> endpoints) {
    this.endpoints = List.copyOf(endpoints);
  }

  private static final class Series {
    final String name;
    final String type;
    final URI endpoint;
    final Map<String, String> labels;
    Double first;
    Double last;
    double max = Double.NEGATIVE_INFINITY;
    double sum;
    int samples;

    Series(String name, String type, URI endpoint, Map<String, String> labels) {
      this.name = name;
      this.type = type;
      this.endpoint = endpoint;
      this.labels = labels;
    }
  }

  /** Takes the baseline and starts 1-second gauge sampling. */
  void start() {
    started = true;
    timer.execute(this::scrapeAll);
    timer.scheduleAtFixedRate(() -> {
      if (!stopped) {
        scrapeAll();
      }
    }, 1, 1, TimeUnit.SECONDS);
  }

  /** Takes the final scrape of the window. */
  void stop() {
    if (!started || stopped) {
      return;
    }
    stopped = true;
    timer.execute(this::scrapeAll);
  }

  /** The export; waits for pending scrapes. */
  ObjectNode export() {
    timer.shutdown();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode root = f.objectNode();
    root.put("schema_version", "1.0");
    ObjectNode summary = root.putObject("summary");
    summary.put("endpoints_configured", endpoints.size());
    synchronized (series) {
      summary.put("endpoints_successful", reached.values().stream().filter(b -> b).count());
      ObjectNode metrics = root.putObject("metrics");
      for (Series s : series.values()) {
        if (s.first == null) {
          continue;
        }
        String name = s.type.equals("counter") && s.name.endsWith("_total")
            ? s.name.substring(0, s.name.length() - "_total".length()) : s.name;
        ObjectNode m = metrics.has(name) ? (ObjectNode) metrics.get(name) : metrics.putObject(name);
        m.put("type", s.type);
        ArrayNode arr = m.has("series") ? (ArrayNode) m.get("series") : m.putArray("series");
        ObjectNode o = arr.addObject();
        o.put("endpoint_url", s.endpoint.toString());
        ObjectNode labels = o.putObject("labels");
        s.labels.forEach(labels::put);
        ObjectNode stats = o.putObject("stats");
        if (s.type.equals("counter")) {
          stats.put("total", s.last - s.first);
        } else {
          stats.put("max", s.max);
          stats.put("avg", s.samples == 0 ? 0 : s.sum / s.samples);
        }
      }
    }
    return root;
  }

  private void scrapeAll() {
    for (URI u : endpoints) {
      try {
        HttpResponse<byte[]> r = BoundedHttp.send(http,
            HttpRequest.newBuilder(u).timeout(SCRAPE_TIMEOUT).GET().build(), MAX_BODY, SCRAPE_TIMEOUT);
        boolean ok = r.statusCode() == 200;
        synchronized (series) {
          reached.merge(u, ok, Boolean::logicalOr);
          if (ok) {
            parse(u, new String(r.body(), StandardCharsets.UTF_8));
          }
        }
      } catch (Exception e) {
        synchronized (series) {
          reached.merge(u, false, Boolean::logicalOr);
        }
        LOG.debug("cannot scrape {}: {}", u, e.toString());
      }
    }
  }

  private void parse(URI endpoint, String text) {
    Map<String, String> types = new HashMap<>();
    for (String line : text.split("\n")) {
      line = line.strip();
      if (line.startsWith("# TYPE ")) {
        String[] p = line.substring(7).split("\\s+");
        if (p.length >= 2) {
          types.put(p[0], p[1]);
        }
        continue;
      }
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = brace >= 0 ? line.indexOf(' ', line.indexOf('}', brace)) : line.indexOf(' ');
      if (space < 0) {
        continue;
      }
      String name = brace >= 0 && brace < space ? line.substring(0, brace) : line.substring(0, space);
      Map<String, String> labels = brace >= 0 && brace < space
          ? labels(line.substring(brace + 1, line.lastIndexOf('}', space))) : Map.of();
      double value;
      try {
        value = Double.parseDouble(line.substring(space + 1).strip().split("\\s+")[0]);
      } catch (NumberFormatException e) {
        continue;
      }
      String type = types.getOrDefault(name, types.getOrDefault(
          name.endsWith("_total") ? name.substring(0, name.length() - 6) : name, "gauge"));
      if (!type.equals("counter") && !type.equals("gauge")) {
        continue; // histograms and summaries are not exported
      }
      String key = endpoint + " " + name + labels;
      Series s = series.computeIfAbsent(key, k -> new Series(name, type, endpoint, labels));
      if (s.first == null) {
        s.first = value;
      }
      s.last = value;
      s.max = Math.max(s.max, value);
      s.sum += value;
      s.samples++;
    }
  }

  static Map<String, String> labels(String body) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = 0;
    while (i < body.length()) {
      int eq = body.indexOf('=', i);
      if (eq < 0) {
        break;
      }
      String key = body.substring(i, eq).strip().replace(",", "");
      int q = body.indexOf('"', eq);
      StringBuilder v = new StringBuilder();
      int j = q + 1;
      while (j < body.length() && body.charAt(j) != '"') {
        if (body.charAt(j) == '\\' && j + 1 < body.length()) {
          j++;
        }
        v.append(body.charAt(j++));
      }
      out.put(key, v.toString());
      i = j + 1;
      while (i < body.length() && (body.charAt(i) == ',' || body.charAt(i) == ' ')) {
        i++;
      }
    }
    return out;
  }

  List<URI> endpoints() {
    return new ArrayList<>(endpoints);
  }
}
