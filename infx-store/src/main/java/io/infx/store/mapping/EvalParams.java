package io.infx.store.mapping;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One mapped eval result (InferenceX-app {@code EvalParams}): one lm-eval task of one config.
 * Natural key: (run, config, task, isl, osl, conc).
 *
 * @param config the configuration
 * @param task lower-cased task name (e.g. {@code gsm8k})
 * @param isl input sequence length in tokens, null when unknown or 0 (AgentX)
 * @param osl output sequence length in tokens, null when unknown or 0
 * @param conc concurrency, null when unknown
 * @param lmEvalVersion lm-eval version; null for aggregate rows
 * @param metrics numeric metrics ({@code em_strict}, {@code em_strict_se}, {@code n_eff}, …)
 */
public record EvalParams(ConfigParams config, String task, Long isl, Long osl, Long conc, String lmEvalVersion,
    ObjectNode metrics) {

  public EvalParams {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** The reference's JSON shape. */
  public ObjectNode toJson() {
    ObjectNode o = Js.nodes().objectNode();
    o.set("config", config.toJson());
    o.put("task", task);
    o.put("isl", isl);
    o.put("osl", osl);
    o.put("conc", conc);
    o.put("lmEvalVersion", lmEvalVersion);
    o.set("metrics", metrics);
    return o;
  }
}
