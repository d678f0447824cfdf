package io.infx.client.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A parser of the Prometheus text exposition format (version 0.0.4, what vLLM, SGLang,
 * TensorRT-LLM, llama.cpp {@code --metrics} and dcgm-exporter serve; the OpenMetrics 1.0 text
 * variants they may send — {@code # EOF}, counter families named without {@code _total},
 * exemplars — are read too).
 *
 * <p>Why infx has its own: the Prometheus Java client ({@code io.prometheus:prometheus-metrics-*},
 * {@code simpleclient}) only <em>writes</em> these formats — its {@code expositionformats}
 * module has writers and no parser — and the parsers that exist for the JVM are unmaintained or
 * part of whole monitoring agents. The format is small and fully specified
 * (prometheus.io/docs/instrumenting/exposition_formats); {@code PrometheusTextTest} checks this
 * parser against text written by the Prometheus client's own {@code PrometheusTextFormatWriter}
 * and {@code OpenMetricsTextFormatWriter}.
 *
 * <p>Strict about sample lines (a malformed one is a {@link PrometheusFormatException} naming its
 * line and column — a scrape of a broken endpoint is counted as failed, never half-read),
 * tolerant of what the format lets vary: comments, blank lines, {@code \r\n}, a trailing comma in a
 * label set, unknown {@code # TYPE} values (read as untyped).
 */
public final class PrometheusText {

  private PrometheusText() {}

  /** A metric family's declared type ({@code # TYPE}); {@link #UNTYPED} when undeclared. */
  public enum Type {
    COUNTER, GAUGE, HISTOGRAM, SUMMARY, UNTYPED;

    static Type of(String s) {
      return switch (s) {
        case "counter" -> COUNTER;
        case "gauge" -> GAUGE;
        case "histogram", "gaugehistogram" -> HISTOGRAM;
        case "summary" -> SUMMARY;
        default -> UNTYPED;
      };
    }
  }

  /**
   * One sample line.
   *
   * @param name the sample's name as written ({@code vllm:prompt_tokens_total},
   *     {@code x_bucket}, …)
   * @param labels its labels in written order
   * @param value its value ({@code NaN} and infinities allowed)
   * @param timestampMs the optional timestamp, epoch milliseconds
   */
  public record Sample(String name, Map<String, String> labels, double value, OptionalLong timestampMs) {
    public Sample {
      Objects.requireNonNull(name, "name");
      labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
      Objects.requireNonNull(timestampMs, "timestampMs");
    }

    /** {@code name{a="x",b="y"}}: the series' identity, labels in written order, values escaped. */
    public String seriesKey() {
      return seriesKey(name, labels);
    }

    /** The series key of a name and labels (the exposition's own syntax). */
    public static String seriesKey(String name, Map<String, String> labels) {
      if (labels.isEmpty()) {
        return name;
      }
      StringBuilder b = new StringBuilder(name).append('{');
      boolean first = true;
      for (Map.Entry<String, String> e : labels.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        b.append(e.getKey()).append("=\"");
        String v = e.getValue();
        for (int i = 0; i < v.length(); i++) {
          char c = v.charAt(i);
          switch (c) {
            case '\\' -> b.append("\\\\");
            case '"' -> b.append("\\\"");
            case '\n' -> b.append("\\n");
            default -> b.append(c);
          }
        }
        b.append('"');
      }
      return b.append('}').toString();
    }
  }

  /**
   * A metric family: its name (as declared by {@code # TYPE}, or the sample's name when
   * undeclared), type, help text and samples in order.
   */
  public record Family(String name, Type type, String help, List<Sample> samples) {
    public Family {
      samples = List.copyOf(samples);
    }
  }

  /** A parsed exposition: its families in order of first appearance. */
  public record Exposition(List<Family> families) {
    public Exposition {
      families = List.copyOf(families);
    }

    /** Every sample, in order. */
    public List<Sample> samples() {
      List<Sample> out = new ArrayList<>();
      families.forEach(f -> out.addAll(f.samples()));
      return out;
    }

    /** The family of that name, or null. */
    public Family family(String name) {
      for (Family f : families) {
        if (f.name().equals(name)) {
          return f;
        }
      }
      return null;
    }
  }

  /** Thrown for a sample line that is not in the format. */
  public static final class PrometheusFormatException extends IllegalArgumentException {
    private final int line;
    private final int column;

    PrometheusFormatException(int line, int column, String message) {
      super("line " + line + ", column " + column + ": " + message);
      this.line = line;
      this.column = column;
    }

    public int line() {
      return line;
    }

    public int column() {
      return column;
    }
  }

  private static final List<String> SUFFIXES = List.of("_total", "_bucket", "_sum", "_count", "_created", "_gsum", "_gcount");

  /**
   * Parses an exposition.
   *
   * @throws PrometheusFormatException for a malformed sample line (line and column 1-based)
   */
  public static Exposition parse(CharSequence text) {
    Map<String, Type> types = new HashMap<>();
    Map<String, String> help = new HashMap<>();
    Map<String, List<Sample>> byFamily = new LinkedHashMap<>();
    int lineNo = 0;
    int start = 0;
    int n = text.length();
    while (start <= n) {
      int end = start;
      while (end < n && text.charAt(end) != '\n') {
        end++;
      }
      lineNo++;
      int stop = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
      String line = text.subSequence(start, stop).toString();
      start = end + 1;
      String t = line.strip();
      if (t.isEmpty()) {
        if (end >= n) {
          break;
        }
        continue;
      }
      if (t.charAt(0) == '#') {
        if (t.equals("# EOF")) {
          break;
        }
        String[] p = t.split("\\s+", 4);
        if (p.length >= 3 && p[1].equals("TYPE")) {
          types.put(p[2], p.length >= 4 ? Type.of(p[3].strip()) : Type.UNTYPED);
          byFamily.computeIfAbsent(p[2], k -> new ArrayList<>());
        } else if (p.length >= 3 && p[1].equals("HELP")) {
          help.put(p[2], p.length >= 4 ? unescapeHelp(p[3]) : "");
        }
        continue;
      }
      Sample s = new LineParser(line, lineNo).sample();
      String family = familyOf(s.name(), types);
      byFamily.computeIfAbsent(family, k -> new ArrayList<>()).add(s);
      if (end >= n) {
        break;
      }
    }
    List<Family> families = new ArrayList<>();
    byFamily.forEach((name, samples) -> {
      if (!samples.isEmpty() || types.containsKey(name)) {
        families.add(new Family(name, types.getOrDefault(name, Type.UNTYPED), help.getOrDefault(name, ""), samples));
      }
    });
    return new Exposition(families);
  }

  private static String familyOf(String sample, Map<String, Type> types) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix : SUFFIXES) {
      if (sample.endsWith(suffix)) {
        String base = sample.substring(0, sample.length() - suffix.length());
        if (types.containsKey(base)) {
          return base;
        }
      }
    }
    return sample;
  }

  private static String unescapeHelp(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char d = s.charAt(++i);
        b.append(d == 'n' ? '\n' : d);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** One sample line, read left to right. */
  private static final class LineParser {
    private final String s;
    private final int lineNo;
    private int i;

    LineParser(String s, int lineNo) {
      this.s = s;
      this.lineNo = lineNo;
    }

    Sample sample() {
      skipBlanks();
      String name = name("a metric name");
      Map<String, String> labels = new LinkedHashMap<>();
      if (i < s.length() && s.charAt(i) == '{') {
        i++;
        labels(labels);
      }
      if (i >= s.length() || (s.charAt(i) != ' ' && s.charAt(i) != '\t')) {
        throw error("expected a space and the sample's value");
      }
      skipBlanks();
      double value = number(token("a value"));
      skipBlanks();
      OptionalLong ts = OptionalLong.empty();
      if (i < s.length() && s.charAt(i) != '#') {
        int at = i;
        String tok = token("a timestamp");
        try {
          // OpenMetrics writes seconds with a fraction; 0.0.4 writes integer milliseconds
          ts = tok.contains(".") || tok.contains("e") || tok.contains("E")
              ? OptionalLong.of(Math.round(Double.parseDouble(tok) * 1000))
              : OptionalLong.of(Long.parseLong(tok));
        } catch (NumberFormatException e) {
          i = at;
          throw error("malformed timestamp '" + tok + "'");
        }
        skipBlanks();
      }
      if (i < s.length() && s.charAt(i) != '#') {
        throw error("unexpected text after the sample");
      }
      // anything from " # " on is an OpenMetrics exemplar: not part of the sample
      return new Sample(name, labels, value, ts);
    }

    private void labels(Map<String, String> labels) {
      while (true) {
        skipBlanks();
        if (i >= s.length()) {
          throw error("unterminated label set");
        }
        if (s.charAt(i) == '}') {
          i++;
          return;
        }
        String key = name("a label name");
        skipBlanks();
        if (i >= s.length() || s.charAt(i) != '=') {
          throw error("expected '=' after label name '" + key + "'");
        }
        i++;
        skipBlanks();
        if (i >= s.length() || s.charAt(i) != '"') {
          throw error("expected '\"' to open the value of label '" + key + "'");
        }
        i++;
        StringBuilder v = new StringBuilder();
        while (true) {
          if (i >= s.length()) {
            throw error("unterminated value of label '" + key + "'");
          }
          char c = s.charAt(i++);
          if (c == '"') {
            break;
          }
          if (c == '\\') {
            if (i >= s.length()) {
              throw error("unterminated escape in label '" + key + "'");
            }
            char d = s.charAt(i++);
            switch (d) {
              case 'n' -> v.append('\n');
              case '\\' -> v.append('\\');
              case '"' -> v.append('"');
              default -> throw error("unknown escape '\\" + d + "' in label '" + key + "'");
            }
          } else {
            v.append(c);
          }
        }
        labels.put(key, v.toString());
        skipBlanks();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
        } else if (i < s.length() && s.charAt(i) != '}') {
          throw error("expected ',' or '}' after the value of label '" + key + "'");
        }
      }
    }

    private String name(String what) {
      int from = i;
      while (i < s.length()) {
        char c = s.charAt(i);
        boolean ok = c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (i > from && c >= '0' && c <= '9');
        if (!ok) {
          break;
        }
        i++;
      }
      if (i == from) {
        throw error("expected " + what);
      }
      return s.substring(from, i);
    }

    private String token(String what) {
      int from = i;
      while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
        i++;
      }
      if (i == from) {
        throw error("expected " + what);
      }
      return s.substring(from, i);
    }

    private double number(String tok) {
      switch (tok) {
        case "NaN":
          return Double.NaN;
        case "+Inf":
        case "Inf":
          return Double.POSITIVE_INFINITY;
        case "-Inf":
          return Double.NEGATIVE_INFINITY;
        default:
          try {
            return Double.parseDouble(tok);
          } catch (NumberFormatException e) {
            i -= tok.length();
            throw error("malformed value '" + tok + "'");
          }
      }
    }

    private void skipBlanks() {
      while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
        i++;
      }
    }

    private PrometheusFormatException error(String message) {
      return new PrometheusFormatException(lineNo, i + 1, message);
    }
  }
}
