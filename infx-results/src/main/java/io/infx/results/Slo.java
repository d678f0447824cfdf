package io.infx.results;

import static io.infx.core.Wording.setting;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeSet;

/**
 * A service-level objective: terms that must all hold at once, e.g.
 * {@code ttft.p99<=2000ms,tpot.p50<=50ms,goodput>=0.99} ({@code infx search --slo}).
 *
 * <h2>Grammar</h2>
 * <pre>
 * slo       := term ( "," term )*                 blanks around tokens are ignored
 * term      := metric [ "." statistic ] op number [ unit ]
 * metric    := ttft | tpot | itl | e2el           latencies: upper bounds, unit required (us, µs, ms, s)
 *            | intvty | interactivity             tok/s per user: a lower bound, unit optional (tok/s, tok/s/user)
 *            | goodput                            share of requests: a lower bound, 0.99 or 99%; no statistic
 * statistic := mean | median | p50 | pN           N in (0, 100), e.g. p90, p99, p99.9 (median = p50)
 * op        := "<=" | "<" | ">=" | ">"            (≤ and ≥ too)
 * </pre>
 * Names are case-insensitive. Every problem is reported at once, located by column
 * ({@code slo:1:17: [slo.statistic] …} with the text and a caret under the column); rule ids:
 * {@code slo.empty}, {@code slo.term}, {@code slo.metric}, {@code slo.statistic}, {@code slo.op},
 * {@code slo.number}, {@code slo.unit}, {@code slo.direction}, {@code slo.duplicate},
 * {@code slo.goodput}.
 *
 * <h2>Goodput</h2>
 * A request is <em>good</em> when it completed and its TTFT, TPOT and E2EL are each at most the
 * per-request threshold of that metric (vLLM's {@code --goodput}, client spec §5.2); the threshold
 * of a metric is the largest upper bound the SLO's terms give it ({@link #goodputThresholdsMillis()}:
 * with {@code ttft.p50<=500ms,ttft.p99<=2000ms} one request may take 2000 ms). {@code goodput} is
 * good requests / requested prompts ({@link #goodFraction(JsonNode)}). A goodput term needs at least
 * one TTFT, TPOT or E2EL term to say which requests are good.
 */
public final class Slo {

  /** Percentiles the client reports without being asked ({@code --metric-percentiles} default). */
  public static final List<Double> CLIENT_PERCENTILES = List.of(90.0, 99.0, 99.9);

  private final List<SloTerm> terms;

  private Slo(List<SloTerm> terms) {
    this.terms = List.copyOf(terms);
  }

  /**
   * An SLO of terms built in code.
   *
   * @throws IllegalArgumentException when {@code terms} is empty, bounds one key twice in one
   *     direction, or holds a goodput term without a TTFT, TPOT or E2EL term
   */
  public static Slo of(List<SloTerm> terms) {
    if (terms.isEmpty()) {
      throw new IllegalArgumentException("an SLO needs at least one term");
    }
    List<String> problems = new ArrayList<>();
    check(terms, (i, rule, msg) -> problems.add(msg));
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return new Slo(terms);
  }

  /**
   * Parses the grammar above, naming the setting {@code slo} in errors.
   *
   * @throws UsageException listing every problem, each with its column and rule id
   */
  public static Slo parse(String text) {
    return parse(text, setting("slo"));
  }

  /**
   * Parses the grammar above.
   *
   * @param source how errors name the input: a {@link Wording.Setting} (the command line shows its
   *     flag) or any text, e.g. a file name
   * @throws UsageException listing every problem, each with its column and rule id
   */
  public static Slo parse(String text, Object source) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(source, "source");
    List<String> errors = new ArrayList<>();
    List<SloTerm> terms = new ArrayList<>();
    List<Integer> columns = new ArrayList<>();
    Reporter report = (col, rule, msg) -> errors.add(locate(text, col, rule, msg));
    if (text.isBlank()) {
      report.at(1, "slo.empty", "no term: write e.g. ttft.p99<=2000ms,tpot.p50<=50ms");
    } else {
      int start = 0;
      while (true) {
        int comma = text.indexOf(',', start);
        int end = comma < 0 ? text.length() : comma;
        new TermParser(text, start, end, report).parse().ifPresent(t -> {
          terms.add(t.term());
          columns.add(t.column());
        });
        if (comma < 0) {
          break;
        }
        start = comma + 1;
      }
    }
    if (errors.isEmpty()) {
      check(terms, (i, rule, msg) -> report.at(columns.get(i), rule, msg));
    }
    if (!errors.isEmpty()) {
      throw new UsageException(Wording.of(source instanceof Wording.Setting s ? s : String.valueOf(source),
          errors.size() == 1 ? errors.get(0) : ": " + errors.size() + " problems\n"
              + String.join("\n", errors.stream().map(e -> e.substring(1)).toList())));
    }
    return new Slo(terms);
  }

  /** The terms, in the order given. */
  public List<SloTerm> terms() {
    return terms;
  }

  /** Whether a goodput term is among the terms. */
  public boolean hasGoodput() {
    return terms.stream().anyMatch(t -> t.metric() == SloTerm.Metric.GOODPUT);
  }

  /**
   * The per-request thresholds that make a request good, in ms by metric ({@code ttft},
   * {@code tpot}, {@code e2el}; the client's {@code --goodput} keys): per metric, the largest upper
   * bound its terms give. Empty without a goodput term.
   */
  public Map<String, Double> goodputThresholdsMillis() {
    Map<String, Double> out = new LinkedHashMap<>();
    if (!hasGoodput()) {
      return out;
    }
    for (SloTerm t : terms) {
      if (GOODPUT_METRICS.contains(t.metric())) {
        out.merge(t.metric().stem(), t.bound() * 1000, Math::max);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The percentiles the terms read that the client does not report by default
   * ({@link #CLIENT_PERCENTILES}, the median and the mean), ascending: they must be asked of the
   * client ({@code --metric-percentiles}) for the aggregate to carry them.
   */
  public List<Double> extraPercentiles() {
    TreeSet<Double> out = new TreeSet<>();
    for (SloTerm t : terms) {
      double p = t.statistic().percentile();
      if (t.statistic().kind() == SloTerm.Statistic.Kind.PERCENTILE && p != 50 && !CLIENT_PERCENTILES.contains(p)) {
        out.add(p);
      }
    }
    return List.copyOf(out);
  }

  /**
   * The goodput share of a raw result ({@code <RESULT_FILENAME>.json}): good requests / requested
   * prompts = {@code request_goodput: × duration / num_prompts} (client spec §5.2, §6.1). Empty when
   * the run was not measured with goodput thresholds ({@code request_goodput:} null) or the file
   * lacks the counts.
   */
  public static OptionalDouble goodFraction(JsonNode raw) {
    JsonNode g = raw.path("request_goodput:");
    JsonNode d = raw.path("duration");
    JsonNode n = raw.path("num_prompts");
    if (!g.isNumber() || !d.isNumber() || !n.isNumber() || n.doubleValue() <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Math.min(1.0, Math.round(g.doubleValue() * d.doubleValue()) / n.doubleValue()));
  }

  /** The SLO in its canonical text: the terms as written, without blanks, joined by commas. */
  @Override
  public String toString() {
    return String.join(",", terms.stream().map(SloTerm::text).toList());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Slo s && s.terms.equals(terms);
  }

  @Override
  public int hashCode() {
    return terms.hashCode();
  }

  private static final List<SloTerm.Metric> GOODPUT_METRICS =
      List.of(SloTerm.Metric.TTFT, SloTerm.Metric.TPOT, SloTerm.Metric.E2EL);

  @FunctionalInterface
  private interface Reporter {
    void at(int column, String rule, String message);
  }

  /** Rules across terms: one bound per key and direction; goodput needs a per-request threshold. */
  private static void check(List<SloTerm> terms, Reporter r) {
    for (int i = 0; i < terms.size(); i++) {
      for (int j = 0; j < i; j++) {
        SloTerm a = terms.get(j);
        SloTerm b = terms.get(i);
        if (a.key().equals(b.key()) && a.comparison().upper() == b.comparison().upper()) {
          r.at(i, "slo.duplicate", b.label() + " is bounded twice (" + a.text() + " and " + b.text() + ")");
        }
      }
    }
    for (int i = 0; i < terms.size(); i++) {
      if (terms.get(i).metric() == SloTerm.Metric.GOODPUT
          && terms.stream().noneMatch(t -> GOODPUT_METRICS.contains(t.metric()))) {
        r.at(i, "slo.goodput", "goodput needs a ttft, tpot or e2el term: their bounds say which requests are good");
      }
    }
  }

  /** {@code ":1:<col>: [rule] message"} with the text and a caret under the column. */
  private static String locate(String text, int column, String rule, String message) {
    return ":1:" + column + ": [" + rule + "] " + message + "\n  " + text + "\n  " + " ".repeat(column - 1) + "^";
  }

  /** A parsed term and the column it starts at (for errors found across terms). */
  private record Located(SloTerm term, int column) {}

  /** One term between two commas. */
  private static final class TermParser {
    private final String s;
    private final int end;
    private final Reporter report;
    private int i;

    TermParser(String s, int start, int end, Reporter report) {
      this.s = s;
      this.i = start;
      this.end = end;
      this.report = report;
    }

    private void blanks() {
      while (i < end && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    private int col() {
      return i + 1;
    }

    private String word() {
      int b = i;
      while (i < end && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
        i++;
      }
      return s.substring(b, i);
    }

    java.util.Optional<Located> parse() {
      blanks();
      int termCol = col();
      if (i >= end) {
        report.at(termCol, "slo.term", "empty term (two commas, or a comma at the end)");
        return java.util.Optional.empty();
      }
      int metricCol = col();
      String name = word().toLowerCase(Locale.ROOT);
      SloTerm.Metric metric = switch (name) {
        case "ttft" -> SloTerm.Metric.TTFT;
        case "tpot" -> SloTerm.Metric.TPOT;
        case "itl" -> SloTerm.Metric.ITL;
        case "e2el" -> SloTerm.Metric.E2EL;
        case "intvty", "interactivity" -> SloTerm.Metric.INTERACTIVITY;
        case "goodput" -> SloTerm.Metric.GOODPUT;
        default -> null;
      };
      if (metric == null) {
        report.at(metricCol, "slo.metric", (name.isEmpty() ? "expected a metric" : "unknown metric '" + name + "'")
            + ": ttft, tpot, itl, e2el, intvty (interactivity) or goodput");
        return java.util.Optional.empty();
      }
      blanks();
      SloTerm.Statistic stat = SloTerm.Statistic.NONE;
      if (i < end && s.charAt(i) == '.') {
        i++;
        blanks();
        int statCol = col();
        if (metric == SloTerm.Metric.GOODPUT) {
          report.at(statCol, "slo.statistic", "goodput is one number, without a statistic: write goodput>=0.99");
          return java.util.Optional.empty();
        }
        int b = i;
        while (i < end && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.')) {
          i++;
        }
        String st = s.substring(b, i).toLowerCase(Locale.ROOT);
        stat = statistic(st);
        if (stat == null) {
          report.at(statCol, "slo.statistic", (st.isEmpty() ? "expected a statistic" : "unknown statistic '" + st + "'")
              + ": mean, median, p50 or pN with 0 < N < 100 (p90, p99, p99.9)");
          return java.util.Optional.empty();
        }
        blanks();
      } else if (metric != SloTerm.Metric.GOODPUT) {
        report.at(col(), "slo.statistic", "say which statistic of " + name + " is bounded: " + name
            + ".p99, " + name + ".median, " + name + ".mean, …");
        return java.util.Optional.empty();
      }
      int opCol = col();
      SloTerm.Operator op = op();
      if (op == null) {
        report.at(opCol, "slo.op", "expected <=, <, >= or > after " + name
            + (stat.kind() == SloTerm.Statistic.Kind.NONE ? "" : "." + stat.label()));
        return java.util.Optional.empty();
      }
      if (metric.latency() != op.upper()) {
        report.at(opCol, "slo.direction", metric.latency()
            ? name + " is a latency: bound it from above (<= or <)"
            : name + " is better when higher: bound it from below (>= or >)");
        return java.util.Optional.empty();
      }
      blanks();
      int numCol = col();
      int b = i;
      while (i < end && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.'
          || ((s.charAt(i) == 'e' || s.charAt(i) == 'E') && i + 1 < end
              && (Character.isDigit(s.charAt(i + 1)) || s.charAt(i + 1) == '-' || s.charAt(i + 1) == '+'))
          || ((s.charAt(i) == '-' || s.charAt(i) == '+') && i > b && (s.charAt(i - 1) == 'e' || s.charAt(i - 1) == 'E')))) {
        i++;
      }
      double number;
      try {
        number = Double.parseDouble(s.substring(b, i));
      } catch (NumberFormatException e) {
        number = Double.NaN;
      }
      if (!(number >= 0) || Double.isInfinite(number)) {
        report.at(numCol, "slo.number", "expected a number >= 0 after " + op.symbol());
        return java.util.Optional.empty();
      }
      blanks();
      int unitCol = col();
      int ub = i;
      while (i < end && !Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      String unit = s.substring(ub, i);
      blanks();
      if (i < end) {
        report.at(col(), "slo.term", "unexpected '" + s.substring(i, end).strip() + "' after the term (terms are separated by commas)");
        return java.util.Optional.empty();
      }
      double bound;
      String u = unit.toLowerCase(Locale.ROOT);
      if (metric.latency()) {
        double scale = switch (u) {
          case "us", "µs" -> 1e-6;
          case "ms" -> 1e-3;
          case "s" -> 1;
          default -> Double.NaN;
        };
        if (Double.isNaN(scale)) {
          report.at(unitCol, "slo.unit", (unit.isEmpty() ? "a latency bound needs a unit" : "unknown unit '" + unit + "'")
              + ": us, ms or s (e.g. " + name + "." + stat.label() + op.symbol() + fmt(number) + "ms)");
          return java.util.Optional.empty();
        }
        bound = number * scale;
      } else if (metric == SloTerm.Metric.INTERACTIVITY) {
        if (!u.isEmpty() && !u.equals("tok/s") && !u.equals("tok/s/user")) {
          report.at(unitCol, "slo.unit", "unknown unit '" + unit + "': interactivity is in tok/s (per user)");
          return java.util.Optional.empty();
        }
        bound = number;
      } else {
        if (!u.isEmpty() && !u.equals("%")) {
          report.at(unitCol, "slo.unit", "unknown unit '" + unit + "': goodput is a share (0.99) or a percentage (99%)");
          return java.util.Optional.empty();
        }
        bound = u.equals("%") ? number / 100 : number;
        if (bound > 1) {
          report.at(numCol, "slo.number", "goodput is a share of requests, at most 1 (or 100%), got " + fmt(number) + unit);
          return java.util.Optional.empty();
        }
      }
      String text = s.substring(termCol - 1, end).replaceAll("\\s+", "");
      return java.util.Optional.of(new Located(new SloTerm(metric, stat, op, bound, text), termCol));
    }

    private SloTerm.Operator op() {
      if (i >= end) {
        return null;
      }
      char c = s.charAt(i);
      boolean eq = i + 1 < end && s.charAt(i + 1) == '=';
      switch (c) {
        case '<' -> {
          i += eq ? 2 : 1;
          return eq ? SloTerm.Operator.AT_MOST : SloTerm.Operator.BELOW;
        }
        case '>' -> {
          i += eq ? 2 : 1;
          return eq ? SloTerm.Operator.AT_LEAST : SloTerm.Operator.ABOVE;
        }
        case '≤' -> {
          i++;
          return SloTerm.Operator.AT_MOST;
        }
        case '≥' -> {
          i++;
          return SloTerm.Operator.AT_LEAST;
        }
        default -> {
          return null;
        }
      }
    }

    private static SloTerm.Statistic statistic(String st) {
      if (st.equals("mean")) {
        return SloTerm.Statistic.MEAN;
      }
      if (st.equals("median")) {
        return SloTerm.Statistic.percentile(50);
      }
      if (st.length() > 1 && st.charAt(0) == 'p' && st.substring(1).matches("\\d+(\\.\\d+)?")) {
        double p = Double.parseDouble(st.substring(1));
        return p > 0 && p < 100 ? SloTerm.Statistic.percentile(p) : null;
      }
      return null;
    }

    private static String fmt(double x) {
      return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }
  }
}
