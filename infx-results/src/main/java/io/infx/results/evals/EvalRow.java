package io.infx.results.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxStyle;
import io.infx.core.json.Json;
import io.infx.results.evals.internal.PyValues;
import java.util.Optional;
import java.util.OptionalDouble;
import org.immutables.value.Value;

/**
 * One row of {@code agg_eval_<exp>.json}: one task of one lm-eval result file, with the identity
 * of the benchmark configuration it guards (from the artifact's {@code meta_env.json}), as
 * {@code utils/collect_eval_results.py} builds it.
 *
 * <p>Metric values ({@link #emStrict()}, {@link #score()}, …) are copied raw from the lm-eval file
 * (numbers as fractions in [0, 1], strings such as {@code "N/A"}, or JSON null), so the aggregate
 * keeps what the tool wrote; {@link #scoreValue()} gives the numeric score when there is one.
 * Identity fields are coerced as the reference coerces them: {@code hw} upper-cased,
 * {@code framework}/{@code precision} lower-cased, integers through Python's {@code int()} with the
 * reference's fallbacks, dp-attention values as lower-cased {@code str()}.
 */
@Value.Immutable
@InfxStyle
public abstract class EvalRow {

  /** Which metric the universal {@link #score()} is. */
  public enum ScoreName {
    /** The strict exact-match value ({@code em_strict}): the strict-match filter, or SWE-bench's resolved rate. */
    EM_STRICT("em_strict"),
    /** lm-eval's {@code acc} for tasks without filters. */
    ACCURACY("accuracy");

    private final String id;

    ScoreName(String id) {
      this.id = id;
    }

    /** The published name ({@code score_name}). */
    public String id() {
      return id;
    }
  }

  /** {@code is_multinode}: a disaggregated (multi-node) configuration. */
  public abstract boolean multinode();

  /** {@code infmax_model_prefix} as written in {@code meta_env.json} (default {@code "unknown"}). */
  public abstract JsonNode modelPrefix();

  /** Served model: lm-eval's {@code model_name}, the task's metadata model, or the meta model. */
  public abstract JsonNode model();

  /** Hardware, upper-cased (e.g. {@code H200}). */
  public abstract String hw();

  /** Framework, lower-cased (e.g. {@code vllm}, {@code dynamo-sglang}). */
  public abstract String framework();

  /** Precision, lower-cased (e.g. {@code fp8}). */
  public abstract String precision();

  /** Spec-decoding value as written (e.g. {@code none}, {@code mtp}). */
  public abstract JsonNode specDecoding();

  /** ISL in tokens (0 when unknown). */
  public abstract long isl();

  /** OSL in tokens (0 when unknown). */
  public abstract long osl();

  /** TP (single-node), else the prefill TP. */
  public abstract long tp();

  /** EP (single-node), else the prefill EP. */
  public abstract long ep();

  public abstract long prefillTp();

  public abstract long prefillEp();

  public abstract long prefillNumWorkers();

  public abstract long decodeTp();

  public abstract long decodeEp();

  public abstract long decodeNumWorkers();

  /** Concurrency the eval ran at (batched evals: the {@code _concN} suffix of the result file). */
  public abstract long conc();

  /** dp-attention ({@code "true"}, {@code "false"}, or {@code "prefill=…,decode=…"} multi-node). */
  public abstract String dpAttention();

  public abstract String prefillDpAttention();

  public abstract String decodeDpAttention();

  /** lm-eval task name (e.g. {@code gsm8k}). */
  public abstract String task();

  /** Strict-match value (fraction), raw. */
  public abstract JsonNode emStrict();

  public abstract JsonNode emStrictSe();

  /** Flexible-extract value (fraction), raw. */
  public abstract JsonNode emFlexible();

  public abstract JsonNode emFlexibleSe();

  /** Effective sample count ({@code n-samples.<task>.effective}), raw. */
  public abstract JsonNode nEff();

  /** The result file, as {@code str(Path(results_dir) / set / file)}. */
  public abstract String source();

  /** The universal score: strict match, else accuracy, else null. */
  public abstract JsonNode score();

  public abstract Optional<ScoreName> scoreName();

  public abstract JsonNode scoreSe();

  /** A builder; every attribute is mandatory except {@link #scoreName()}. */
  public static ImmutableEvalRow.Builder builder() {
    return ImmutableEvalRow.builder();
  }

  /** {@link #score()} as a number, empty when it is null or not numeric. */
  public OptionalDouble scoreValue() {
    JsonNode s = score();
    return PyValues.isNumber(s) ? OptionalDouble.of(PyValues.toDouble(s)) : OptionalDouble.empty();
  }

  /** The row as the reference writes it (key order matters for the file bytes). */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("is_multinode", multinode());
    o.set("model_prefix", modelPrefix());
    o.set("model", model());
    o.put("hw", hw());
    o.put("framework", framework());
    o.put("precision", precision());
    o.set("spec_decoding", specDecoding());
    o.put("isl", isl());
    o.put("osl", osl());
    o.put("tp", tp());
    o.put("ep", ep());
    o.put("prefill_tp", prefillTp());
    o.put("prefill_ep", prefillEp());
    o.put("prefill_num_workers", prefillNumWorkers());
    o.put("decode_tp", decodeTp());
    o.put("decode_ep", decodeEp());
    o.put("decode_num_workers", decodeNumWorkers());
    o.put("conc", conc());
    o.put("dp_attention", dpAttention());
    o.put("prefill_dp_attention", prefillDpAttention());
    o.put("decode_dp_attention", decodeDpAttention());
    o.put("task", task());
    o.set("em_strict", emStrict());
    o.set("em_strict_se", emStrictSe());
    o.set("em_flexible", emFlexible());
    o.set("em_flexible_se", emFlexibleSe());
    o.set("n_eff", nEff());
    o.put("source", source());
    o.set("score", score());
    if (scoreName().isPresent()) {
      o.put("score_name", scoreName().get().id());
    } else {
      o.putNull("score_name");
    }
    o.set("score_se", scoreSe());
    return o;
  }
}
