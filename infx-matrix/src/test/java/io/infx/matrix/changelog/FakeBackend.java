package io.infx.matrix.changelog;

import io.infx.matrix.EvalMode;
import io.infx.matrix.ScenarioType;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.matrix.changelog.internal.RawMasters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stand-in generator for planner tests. A "master" here is a tiny YAML mapping
 * {@code key: {image, multinode?, scenarios: {fixed-seq-len: [{tp, conc: [..]}], agentic-coding:
 * [{tp, conc: [..]}]}}}; expansion emits schema-valid generator-form rows, SUBSET marks the
 * highest concurrency of each config/scenario as an eval-only row, ALL marks every row. Every
 * call is recorded so tests can check what the planner asked for.
 */
class FakeBackend implements MatrixBackend {

  record Call(List<String> keys, Set<ScenarioType> scenarios, EvalMode mode, String catalogue) {}

  record Cat(String name, Map<String, JsonNode> configs) implements Catalogue {
    @Override
    public List<String> keys() {
      return List.copyOf(configs.keySet());
    }
  }

  final List<Call> calls = new ArrayList<>();
  int trims;
  int dedupes;

  @Override
  public Catalogue loadCatalogue(List<ConfigText> masters) {
    return new Cat(masters.isEmpty() ? "?" : masters.get(0).name(),
        RawMasters.load(masters, ErrorKind.CONFIG_LOAD));
  }

  @Override
  public Runners loadRunners(ConfigText runners) {
    return new Runners() {};
  }

  @Override
  public List<ObjectNode> expand(Catalogue catalogue, Runners runners, List<String> keys,
      Set<ScenarioType> scenarios, EvalMode mode) {
    Cat cat = (Cat) catalogue;
    calls.add(new Call(keys, scenarios, mode, cat.name()));
    List<ObjectNode> out = new ArrayList<>();
    for (String key : keys) {
      JsonNode config = cat.configs().get(key);
      boolean multi = config.path("multinode").asBoolean(false);
      for (ScenarioType t : ScenarioType.values()) {
        if (!scenarios.contains(t) || !config.path("scenarios").has(t.wire())) {
          continue;
        }
        List<ObjectNode> rows = new ArrayList<>();
        for (JsonNode entry : config.path("scenarios").get(t.wire())) {
          if (multi && t == ScenarioType.FIXED_SEQ_LEN) {
            rows.add(row(key, config, entry, t, entry.get("conc").deepCopy()));
          } else {
            for (JsonNode c : entry.get("conc")) {
              rows.add(row(key, config, entry, t, multi ? JsonNodeFactory.instance.arrayNode()
                  .add(c.intValue()) : c));
            }
          }
        }
        if (mode == EvalMode.NONE) {
          out.addAll(rows);
          continue;
        }
        ObjectNode top = null;
        for (ObjectNode r : rows) {
          if (top == null || maxConc(r) > maxConc(top)) {
            top = r;
          }
        }
        for (ObjectNode r : rows) {
          if (mode == EvalMode.ALL || r == top) {
            r.put("run-eval", true);
            r.put("eval-only", true);
            if (multi) {
              r.put("eval-conc", maxConc(r));
            }
            out.add(r);
          }
        }
      }
    }
    return out;
  }

  private static int maxConc(ObjectNode r) {
    JsonNode c = r.get("conc");
    if (c.isInt()) {
      return c.intValue();
    }
    int m = 0;
    for (JsonNode v : c) {
      m = Math.max(m, v.intValue());
    }
    return m;
  }

  private static ObjectNode row(String key, JsonNode config, JsonNode entry, ScenarioType t,
      JsonNode conc) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode r = f.objectNode();
    boolean multi = config.path("multinode").asBoolean(false);
    r.put("image", config.path("image").asText("img"));
    r.put("model", key);
    r.put("model-prefix", "m");
    r.put("precision", "fp8");
    r.put("framework", "sglang");
    r.put("runner", "h200");
    int tp = entry.path("tp").asInt(8);
    if (t == ScenarioType.FIXED_SEQ_LEN) {
      r.put("isl", entry.path("isl").asInt(8192));
      r.put("osl", 1024);
      if (multi) {
        r.put("spec-decoding", "none");
        r.set("prefill", worker(tp, entry.path("ep").asInt(1)));
        r.set("decode", worker(tp, 1));
        r.set("conc", conc);
        r.put("max-model-len", 9472);
        r.put("exp-name", "m_8k1k");
        r.put("disagg", true);
        r.put("run-eval", false);
        r.put("kv-p2p-transfer", "nixl");
        r.put("node-count", 2);
      } else {
        r.put("tp", tp).put("pp", 1).put("dcp-size", 1).put("pcp-size", 1);
        r.set("conc", conc);
        r.put("max-model-len", 9472).put("ep", 1).put("dp-attn", false)
            .put("spec-decoding", "none").put("exp-name", "m_8k1k").put("disagg", false)
            .put("run-eval", false);
      }
    } else if (multi) {
      r.put("spec-decoding", "none");
      r.set("prefill", worker(tp, entry.path("ep").asInt(1)));
      r.set("decode", worker(tp, 1));
      r.set("conc", conc);
      r.put("kv-offloading", "none").put("total-cpu-dram-gb", 0).put("duration", 3600)
          .put("exp-name", "m_p1x" + tp + "_conc" + conc.get(0)).put("disagg", true)
          .put("scenario-type", "agentic-coding").put("kv-p2p-transfer", "nixl")
          .put("node-count", 2);
    } else {
      r.put("tp", tp).put("pp", 1).put("dcp-size", 1).put("pcp-size", 1).put("ep", 1)
          .put("dp-attn", false).put("spec-decoding", "none");
      r.set("conc", conc);
      r.put("kv-offloading", "none").put("total-cpu-dram-gb", 0).put("duration", 3600)
          .put("exp-name", "m_tp" + tp + "_conc" + conc + "_kvnone")
          .put("scenario-type", "agentic-coding");
    }
    return r;
  }

  private static ObjectNode worker(int tp, int ep) {
    ObjectNode w = JsonNodeFactory.instance.objectNode();
    w.put("num-worker", 1).put("tp", tp).put("ep", ep).put("dp-attn", false).put("pp", 1)
        .put("dcp-size", 1).put("pcp-size", 1);
    return w;
  }

  /** Keeps the lowest concurrency per (model, scenario, tp) of single-node rows; lists → [min]. */
  @Override
  public List<ObjectNode> trimConc(List<ObjectNode> rows) {
    trims++;
    Map<String, ObjectNode> best = new LinkedHashMap<>();
    for (ObjectNode r : rows) {
      String k = r.get("model").asText() + r.path("scenario-type").asText() + r.path("tp")
          + r.path("prefill");
      ObjectNode cur = best.get(k);
      if (cur == null || maxConc(r) < maxConc(cur)) {
        best.put(k, r);
      }
    }
    List<ObjectNode> out = new ArrayList<>();
    for (ObjectNode r : best.values()) {
      if (r.get("conc").isArray()) {
        int min = Integer.MAX_VALUE;
        for (JsonNode v : r.get("conc")) {
          min = Math.min(min, v.intValue());
        }
        r.set("conc", JsonNodeFactory.instance.arrayNode().add(min));
      }
      out.add(r);
    }
    return out;
  }

  /** Drops later eval rows that repeat an earlier (model, conc). */
  @Override
  public List<ObjectNode> dropAppCollidingEvals(List<ObjectNode> rows) {
    dedupes++;
    List<ObjectNode> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (ObjectNode r : rows) {
      if (seen.add(r.get("model").asText() + "|" + r.get("conc") + "|" + r.path("scenario-type"))) {
        out.add(r);
      }
    }
    return out;
  }
}
