package io.infx.results.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import io.infx.core.io.AtomicFiles;
import io.infx.core.python.PythonJson;
import io.infx.results.evals.internal.GithubTable;
import io.infx.results.evals.internal.PyValues;
import io.infx.core.python.PythonNumbers;
import io.infx.core.python.PythonRepr;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The two outputs of {@code collect_eval_results.py}: the Markdown summary (GitHub tables, one for
 * single-node rows and one for multi-node rows, as python-tabulate 0.10.0 prints them) and the
 * aggregate file {@code agg_eval_<exp>.json} (rows in discovery order, {@code json.dump(indent=2)}).
 */
public final class EvalSummary {

  /** The reference's message when nothing was collected. */
  public static final String NO_RESULTS = "> No eval results found to summarize.";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Table order ({@code sort_by} argument of the reference). */
  public enum SortOrder {
    /** {@code (model_prefix, hw, framework, precision, spec_decoding, isl, osl, topology…, conc)}. */
    MODEL_PREFIX,
    /** The same without {@code model_prefix}: hardware first. */
    HW;

    /** The reference's rule: {@code "hw"} selects {@link #HW}, anything else {@link #MODEL_PREFIX}. */
    public static SortOrder fromArgument(String arg) {
      return "hw".equals(arg) ? HW : MODEL_PREFIX;
    }
  }

  private EvalSummary() {}

  /** The name of the aggregate for an experiment: {@code agg_eval_<exp>.json}. */
  public static String aggregateFileName(String expName) {
    return "agg_eval_" + expName + ".json";
  }

  /**
   * The Markdown printed on stdout, ending with a newline.
   *
   * @throws EvalInputException when sort keys cannot be ordered (e.g. a number against a string)
   */
  public static String markdown(List<EvalRow> rows, SortOrder order) {
    List<EvalRow> single = new ArrayList<>();
    List<EvalRow> multi = new ArrayList<>();
    for (EvalRow r : rows) {
      (r.multinode() ? multi : single).add(r);
    }
    single.sort(keyOrder(order, false));
    multi.sort(keyOrder(order, true));
    if (rows.isEmpty()) {
      return NO_RESULTS + "\n";
    }
    StringBuilder out = new StringBuilder();
    if (!single.isEmpty()) {
      List<String> headers = List.of("Model Prefix", "Hardware", "Framework", "Precision",
          "Spec Decode", "ISL", "OSL", "TP", "EP", "Conc", "DP Attention", "Task", "Score",
          "EM Strict", "EM Flexible", "N (eff)", "Model");
      List<List<JsonNode>> table = new ArrayList<>();
      for (EvalRow r : single) {
        table.add(List.of(r.modelPrefix(), text(r.hw()), text(r.framework().toUpperCase(Locale.ROOT)),
            text(r.precision().toUpperCase(Locale.ROOT)), r.specDecoding(), num(r.isl()), num(r.osl()),
            num(r.tp()), num(r.ep()), num(r.conc()), text(r.dpAttention()), text(r.task()),
            text(cell(r.score(), r.scoreSe())), text(cell(r.emStrict(), r.emStrictSe())),
            text(cell(r.emFlexible(), r.emFlexibleSe())),
            PyValues.truthy(r.nEff()) ? r.nEff() : text(""), r.model()));
      }
      out.append("### Single-Node Eval Results\n\n").append(GithubTable.render(headers, table)).append('\n');
    }
    if (!multi.isEmpty()) {
      List<String> headers = List.of("Model Prefix", "Hardware", "Framework", "Precision",
          "Spec Decode", "ISL", "OSL", "Prefill TP", "Prefill EP", "Prefill DP Attn",
          "Prefill Workers", "Decode TP", "Decode EP", "Decode DP Attn", "Decode Workers", "Conc",
          "Task", "Score", "EM Strict", "EM Flexible", "N (eff)", "Model");
      List<List<JsonNode>> table = new ArrayList<>();
      for (EvalRow r : multi) {
        table.add(List.of(r.modelPrefix(), text(r.hw()), text(r.framework().toUpperCase(Locale.ROOT)),
            text(r.precision().toUpperCase(Locale.ROOT)), r.specDecoding(), num(r.isl()), num(r.osl()),
            num(r.prefillTp()), num(r.prefillEp()), text(r.prefillDpAttention()),
            num(r.prefillNumWorkers()), num(r.decodeTp()), num(r.decodeEp()),
            text(r.decodeDpAttention()), num(r.decodeNumWorkers()), num(r.conc()), text(r.task()),
            text(cell(r.score(), r.scoreSe())), text(cell(r.emStrict(), r.emStrictSe())),
            text(cell(r.emFlexible(), r.emFlexibleSe())),
            PyValues.truthy(r.nEff()) ? r.nEff() : text(""), r.model()));
      }
      if (!single.isEmpty()) {
        out.append("\n\n");
      }
      out.append("### Multi-Node Eval Results\n\n").append(GithubTable.render(headers, table)).append('\n');
    }
    return out.toString();
  }

  /** The aggregate text exactly as {@code json.dump(rows, f, indent=2)} writes it (no final newline). */
  public static String aggregateJson(List<EvalRow> rows) {
    ArrayNode array = NODES.arrayNode();
    for (EvalRow r : rows) {
      array.add(r.toJson());
    }
    return PythonJson.dumps(array, 2);
  }

  /** Writes {@link #aggregateJson} to {@code file} atomically. */
  public static void writeAggregate(Path file, List<EvalRow> rows) {
    AtomicFiles.write(file, aggregateJson(rows).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code pct(v) + se(s)}: {@code 95.15% ±0.59%}, {@code N/A} for a non-number. */
  public static String cell(JsonNode value, JsonNode stderr) {
    var v = PythonNumbers.toFloat(value);
    String pct = v.ok() ? PythonNumbers.formatFixed(v.value().get() * 100, 2) + "%" : "N/A";
    var s = PythonNumbers.toFloat(stderr);
    String se = s.ok() ? " ±" + PythonNumbers.formatFixed(s.value().get() * 100, 2) + "%" : "";
    return pct + se;
  }

  private static JsonNode text(String s) {
    return TextNode.valueOf(s);
  }

  private static JsonNode num(long v) {
    return NODES.numberNode(v);
  }

  private static Comparator<EvalRow> keyOrder(SortOrder order, boolean multinode) {
    return (a, b) -> compareTuples(key(a, order, multinode), key(b, order, multinode));
  }

  private static List<JsonNode> key(EvalRow r, SortOrder order, boolean multinode) {
    List<JsonNode> k = new ArrayList<>();
    if (order == SortOrder.MODEL_PREFIX) {
      k.add(r.modelPrefix());
    }
    k.add(text(r.hw()));
    k.add(text(r.framework()));
    k.add(text(r.precision()));
    k.add(r.specDecoding());
    k.add(num(r.isl()));
    k.add(num(r.osl()));
    if (multinode) {
      k.add(num(r.prefillTp()));
      k.add(num(r.prefillEp()));
      k.add(num(r.prefillNumWorkers()));
      k.add(num(r.decodeTp()));
      k.add(num(r.decodeEp()));
      k.add(num(r.decodeNumWorkers()));
    } else {
      k.add(num(r.tp()));
      k.add(num(r.ep()));
    }
    k.add(num(r.conc()));
    return k;
  }

  /** Python tuple ordering: the first unequal position decides with {@code <}. */
  private static int compareTuples(List<JsonNode> a, List<JsonNode> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!PyValues.equal(a.get(i), b.get(i))) {
        return PyValues.compare(a.get(i), b.get(i));
      }
    }
    return 0;
  }
}
