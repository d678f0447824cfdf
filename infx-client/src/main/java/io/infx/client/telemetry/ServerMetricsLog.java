package io.infx.client.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.telemetry.ServerMetricNames.Engine;
import io.infx.core.json.Json;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The per-point time series of server {@code /metrics}: a compact JSON Lines file beside the raw
 * result ({@code <result>_server_metrics.jsonl}), one line per scrape, written as scrapes arrive (so
 * memory stays bounded however long the point runs) and read back by {@link #read}.
 *
 * <pre>
 * {"infx_server_metrics":1,"endpoints":["http://127.0.0.1:8000/metrics"],"interval_ms":1000}
 * {"t":1767261600123,"e":0,"engine":"vllm","b":"start","c":{"vllm:generation_tokens_total{model_name=\"m\"}":0},"g":{…}}
 * {"t":1767261601123,"e":0,"engine":"vllm","c":{…},"g":{…}}
 * {"t":1767261601200,"e":0,"error":"connect timed out"}
 * {"t":1767261650456,"e":0,"engine":"vllm","b":"end","c":{…},"g":{…}}
 * </pre>
 *
 * <p>{@code t}: epoch milliseconds when the response arrived; {@code e}: the endpoint's index;
 * {@code b}: the window's {@code start} / {@code end} boundary scrape ({@code settle} for the
 * extra scrapes after the end that wait for the server's counters to stop moving; the last
 * {@code end} counts); {@code c}: counters (Prometheus counters and the {@code _count} / {@code _sum}
 * of histograms and summaries), {@code g}: gauges and untyped samples, by series key
 * ({@code name{labels}} as the exposition writes it). Histogram buckets and summary quantiles are
 * not kept.
 */
public final class ServerMetricsLog implements Closeable {

  /** The file format's version ({@code infx_server_metrics}). */
  public static final int VERSION = 1;

  /**
   * One scrape's kept values.
   *
   * @param timeMs epoch milliseconds
   * @param endpoint the endpoint's index in the header
   * @param engine the engine its names belong to
   * @param counters counter series → value
   * @param gauges gauge series → value
   */
  public record Scrape(long timeMs, int endpoint, Engine engine, Map<String, Double> counters,
      Map<String, Double> gauges) {
    public Scrape {
      counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
      gauges = Collections.unmodifiableMap(new LinkedHashMap<>(gauges));
    }

    /** The values of one exposition, split into counters and gauges; the engine from the names. */
    public static Scrape of(long timeMs, int endpoint, PrometheusText.Exposition x) {
      Map<String, Double> c = new LinkedHashMap<>();
      Map<String, Double> g = new LinkedHashMap<>();
      Engine engine = Engine.UNKNOWN;
      for (PrometheusText.Family f : x.families()) {
        for (PrometheusText.Sample s : f.samples()) {
          if (engine == Engine.UNKNOWN) {
            engine = ServerMetricNames.engineOf(s.name());
          }
          switch (f.type()) {
            case COUNTER -> {
              if (!s.name().endsWith("_created")) {
                c.put(s.seriesKey(), s.value());
              }
            }
            case HISTOGRAM, SUMMARY -> {
              if (s.name().endsWith("_count") || s.name().endsWith("_sum")) {
                c.put(s.seriesKey(), s.value());
              }
            }
            default -> g.put(s.seriesKey(), s.value());
          }
        }
      }
      return new Scrape(timeMs, endpoint, engine, c, g);
    }
  }

  /** A line of the file as read back: a scrape (with its boundary mark) or a failure. */
  public record Line(long timeMs, int endpoint, String boundary, Scrape scrape, String error) {}

  /** A file read back: its endpoints, interval and lines in order. */
  public record Contents(List<String> endpoints, long intervalMs, List<Line> lines) {

    /**
     * Each endpoint's window, exactly as {@link TelemetrySession} summarised it live: scrapes from
     * the last {@code start} boundary to the last {@code end} boundary are in the window.
     */
    public List<ServerWindow> windows(int maxSeries) {
      List<ServerWindow> out = new ArrayList<>();
      for (int e = 0; e < endpoints.size(); e++) {
        int[] bounds = bounds(e);
        ServerWindow.Accumulator acc = new ServerWindow.Accumulator(endpoints.get(e), maxSeries);
        for (int i = 0; i < lines.size(); i++) {
          Line l = lines.get(i);
          if (l.endpoint() != e) {
            continue;
          }
          if (l.scrape() == null) {
            acc.failure(l.error());
            continue;
          }
          String b = i == bounds[0] ? "start" : i == bounds[1] ? "end" : null;
          acc.scrape(l.scrape(), inWindow(i, bounds), b);
        }
        out.add(acc.result());
      }
      return out;
    }

    /** The line indexes of an endpoint's last {@code start} and last {@code end} boundary (-1: none). */
    public int[] bounds(int endpoint) {
      int lastStart = -1;
      int lastEnd = -1;
      for (int i = 0; i < lines.size(); i++) {
        Line l = lines.get(i);
        if (l.endpoint() == endpoint && l.scrape() != null) {
          if ("start".equals(l.boundary())) {
            lastStart = i;
          } else if ("end".equals(l.boundary())) {
            lastEnd = i;
          }
        }
      }
      return new int[] {lastStart, lastEnd};
    }

    /**
     * Whether line {@code i} is a scrape inside the window {@link #bounds} gave: from the start
     * boundary to the end boundary, settle scrapes excluded.
     */
    public boolean inWindow(int i, int[] bounds) {
      Line l = lines.get(i);
      return l.scrape() != null && bounds[0] >= 0 && i >= bounds[0] && (bounds[1] < 0 || i <= bounds[1])
          && !"settle".equals(l.boundary());
    }
  }

  private final Writer out;
  private final JsonFactory json = Json.mapper().getFactory();

  private ServerMetricsLog(Writer out) {
    this.out = out;
  }

  /** Creates (or replaces) the file and writes its header line. */
  public static ServerMetricsLog create(Path file, List<String> endpoints, long intervalMs) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      ServerMetricsLog log = new ServerMetricsLog(new BufferedWriter(Files.newBufferedWriter(file,
          StandardCharsets.UTF_8), 1 << 16));
      log.header(endpoints, intervalMs);
      return log;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** A log written to any writer (tests, in-memory). */
  public static ServerMetricsLog to(Writer w, List<String> endpoints, long intervalMs) {
    ServerMetricsLog log = new ServerMetricsLog(w);
    try {
      log.header(endpoints, intervalMs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return log;
  }

  private void header(List<String> endpoints, long intervalMs) throws IOException {
    try (JsonGenerator g = json.createGenerator(out)) {
      g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      g.writeStartObject();
      g.writeNumberField("infx_server_metrics", VERSION);
      g.writeArrayFieldStart("endpoints");
      for (String e : endpoints) {
        g.writeString(e);
      }
      g.writeEndArray();
      g.writeNumberField("interval_ms", intervalMs);
      g.writeEndObject();
    }
    out.write('\n');
  }

  /** Appends a scrape; {@code boundary} is {@code start}, {@code end}, {@code settle} or null. */
  public synchronized void scrape(Scrape s, String boundary) {
    try (JsonGenerator g = json.createGenerator(out)) {
      g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      g.writeStartObject();
      g.writeNumberField("t", s.timeMs());
      g.writeNumberField("e", s.endpoint());
      g.writeStringField("engine", s.engine().label());
      if (boundary != null) {
        g.writeStringField("b", boundary);
      }
      values(g, "c", s.counters());
      values(g, "g", s.gauges());
      g.writeEndObject();
      g.flush();
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void values(JsonGenerator g, String field, Map<String, Double> values) throws IOException {
    g.writeObjectFieldStart(field);
    for (Map.Entry<String, Double> e : values.entrySet()) {
      double v = e.getValue();
      if (Double.isFinite(v)) {
        g.writeNumberField(e.getKey(), v);
      } else {
        g.writeStringField(e.getKey(), Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
      }
    }
    g.writeEndObject();
  }

  /** Appends a failed scrape. */
  public synchronized void failure(long timeMs, int endpoint, String message) {
    try (JsonGenerator g = json.createGenerator(out)) {
      g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      g.writeStartObject();
      g.writeNumberField("t", timeMs);
      g.writeNumberField("e", endpoint);
      g.writeStringField("error", message);
      g.writeEndObject();
      g.flush();
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Flushes what is buffered (the file is complete up to here). */
  public synchronized void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads a file's text back.
   *
   * @throws IllegalArgumentException naming the line for a line that is not JSON or a header that
   *     is not this format's
   */
  public static Contents read(String text) {
    Objects.requireNonNull(text, "text");
    List<Line> lines = new ArrayList<>();
    List<String> endpoints = null;
    long interval = 0;
    int no = 0;
    for (String raw : text.split("\n")) {
      no++;
      if (raw.isBlank()) {
        continue;
      }
      JsonNode n;
      try {
        n = Json.mapper().readTree(raw);
      } catch (IOException e) {
        throw new IllegalArgumentException("line " + no + ": not JSON (" + e.getMessage().lines().findFirst().orElse("")
            + ")");
      }
      if (endpoints == null) {
        if (!n.has("infx_server_metrics")) {
          throw new IllegalArgumentException("line 1: not an infx server-metrics file (no infx_server_metrics header)");
        }
        if (n.get("infx_server_metrics").asInt() != VERSION) {
          throw new IllegalArgumentException("line 1: infx_server_metrics version " + n.get("infx_server_metrics")
              + " is not supported (this reader knows " + VERSION + ")");
        }
        endpoints = new ArrayList<>();
        for (JsonNode e : n.path("endpoints")) {
          endpoints.add(e.asText());
        }
        interval = n.path("interval_ms").asLong(0);
        continue;
      }
      long t = n.path("t").asLong();
      int e = n.path("e").asInt();
      if (n.has("error")) {
        lines.add(new Line(t, e, null, null, n.get("error").asText()));
        continue;
      }
      Scrape s = new Scrape(t, e, Engine.ofLabel(n.path("engine").asText("unknown")), numbers(n.path("c")),
          numbers(n.path("g")));
      lines.add(new Line(t, e, n.has("b") ? n.get("b").asText() : null, s, null));
    }
    if (endpoints == null) {
      throw new IllegalArgumentException("empty server-metrics file");
    }
    return new Contents(List.copyOf(endpoints), interval, lines);
  }

  private static Map<String, Double> numbers(JsonNode o) {
    Map<String, Double> m = new LinkedHashMap<>();
    o.fields().forEachRemaining(f -> {
      JsonNode v = f.getValue();
      m.put(f.getKey(), v.isNumber() ? v.doubleValue() : switch (v.asText()) {
        case "+Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        default -> Double.NaN;
      });
    });
    return m;
  }

  /** The labels of a series key's {@code {…}} part. */
  static Map<String, String> labelsOf(String braces) {
    PrometheusText.Exposition x = PrometheusText.parse("x" + braces + " 0");
    return x.samples().get(0).labels();
  }

  /** A scrape rendered as the line {@link #scrape} writes (tests). */
  static String render(Scrape s, String boundary) {
    StringWriter w = new StringWriter();
    ServerMetricsLog log = new ServerMetricsLog(w);
    log.scrape(s, boundary);
    return w.toString();
  }
}
