package io.infx.matrix.changelog.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The four matrix-row schemas as the planner's output re-serializes them (spec §5.1–5.5, §6.7;
 * reference {@code SingleNodeMatrixEntry}, {@code MultiNodeMatrixEntry},
 * {@code SingleNodeAgenticMatrixEntry}, {@code MultiNodeAgenticMatrixEntry} at 07db303e): fields
 * in schema declaration order, schema defaults written out, absent optional fields omitted, and
 * every row checked (V72) — unknown keys, required keys, types, invariants.
 */
public enum RowSchema {
  SINGLE_NODE, MULTI_NODE, SINGLE_NODE_AGENTIC, MULTI_NODE_AGENTIC;

  private enum T {
    STR, STR_NONEMPTY, INT, POS_INT, NONNEG_INT, BOOL, INT_OR_INT_LIST, INT_LIST, SPEC, FALSE, KV,
    WORKER, COMPONENT, BACKEND, HEX64, STR_LIST_OR_NULL
  }

  private enum P { REQUIRED, DEFAULT, OPTIONAL }

  private record F(String name, T type, P presence, JsonNode def) {}

  private static final JsonNodeFactory J = JsonNodeFactory.instance;
  private static final Pattern HEX64 = Pattern.compile("^[0-9a-f]{64}$");
  private static final Set<String> SPEC_VALUES = Set.of("mtp", "draft_model", "none");

  private static F req(String n, T t) {
    return new F(n, t, P.REQUIRED, null);
  }

  private static F opt(String n, T t) {
    return new F(n, t, P.OPTIONAL, null);
  }

  private static F def(String n, T t, JsonNode d) {
    return new F(n, t, P.DEFAULT, d);
  }

  private static final List<F> SN = List.of(
      req("image", T.STR), opt("srt-recipe", T.STR_NONEMPTY), opt("eval-srt-recipe", T.STR_NONEMPTY),
      req("model", T.STR), req("model-prefix", T.STR), req("precision", T.STR),
      req("framework", T.STR), req("spec-decoding", T.SPEC), req("runner", T.STR),
      req("isl", T.INT), req("osl", T.INT), def("require-power", T.BOOL, J.booleanNode(false)),
      req("tp", T.INT), req("pp", T.POS_INT), req("dcp-size", T.POS_INT),
      req("pcp-size", T.POS_INT), req("ep", T.INT), req("dp-attn", T.BOOL),
      req("conc", T.INT_OR_INT_LIST), req("max-model-len", T.INT), req("exp-name", T.STR),
      req("disagg", T.FALSE), req("run-eval", T.BOOL), def("eval-only", T.BOOL, J.booleanNode(false)),
      opt("eval-framework", T.STR), opt("eval-suite", T.STR), opt("router", T.COMPONENT),
      opt("recipe-fingerprint", T.HEX64));

  private static final List<F> MN = List.of(
      opt("srt-recipe", T.STR_NONEMPTY), opt("eval-srt-recipe", T.STR_NONEMPTY),
      req("image", T.STR), req("model", T.STR), req("model-prefix", T.STR),
      req("precision", T.STR), req("framework", T.STR), req("spec-decoding", T.SPEC),
      req("runner", T.STR), req("node-count", T.POS_INT), req("isl", T.INT), req("osl", T.INT),
      def("require-power", T.BOOL, J.booleanNode(false)), req("prefill", T.WORKER),
      req("decode", T.WORKER), req("conc", T.INT_LIST), req("max-model-len", T.INT),
      req("exp-name", T.STR), req("disagg", T.BOOL), req("run-eval", T.BOOL),
      def("eval-only", T.BOOL, J.booleanNode(false)), opt("eval-conc", T.INT),
      def("eval-all-concs", T.BOOL, J.booleanNode(false)), opt("eval-framework", T.STR),
      opt("eval-suite", T.STR), opt("router", T.COMPONENT), opt("kv-p2p-transfer", T.STR_NONEMPTY),
      opt("recipe-fingerprint", T.HEX64));

  private static final List<F> SNA = List.of(
      req("image", T.STR), opt("srt-recipe", T.STR_NONEMPTY), opt("eval-srt-recipe", T.STR_NONEMPTY),
      req("model", T.STR), req("model-prefix", T.STR), req("precision", T.STR),
      req("framework", T.STR), req("runner", T.STR), req("tp", T.INT), req("pp", T.POS_INT),
      req("dcp-size", T.POS_INT), req("pcp-size", T.POS_INT), req("ep", T.INT),
      req("dp-attn", T.BOOL), def("spec-decoding", T.SPEC, J.textNode("none")),
      req("conc", T.INT), req("kv-offloading", T.KV), opt("kv-offload-backend", T.BACKEND),
      opt("router", T.COMPONENT), req("total-cpu-dram-gb", T.NONNEG_INT), req("duration", T.INT),
      req("exp-name", T.STR), req("scenario-type", T.STR), opt("run-eval", T.BOOL),
      opt("eval-only", T.BOOL), opt("eval-framework", T.STR), opt("eval-suite", T.STR),
      opt("recipe-fingerprint", T.HEX64));

  private static final List<F> MNA = List.of(
      opt("srt-recipe", T.STR_NONEMPTY), opt("eval-srt-recipe", T.STR_NONEMPTY),
      req("image", T.STR), req("model", T.STR), req("model-prefix", T.STR),
      req("precision", T.STR), req("framework", T.STR), req("spec-decoding", T.SPEC),
      req("runner", T.STR), req("node-count", T.POS_INT), req("prefill", T.WORKER),
      req("decode", T.WORKER), req("conc", T.INT_LIST), req("kv-offloading", T.KV),
      opt("kv-offload-backend", T.BACKEND), opt("router", T.COMPONENT),
      opt("kv-p2p-transfer", T.STR_NONEMPTY), req("total-cpu-dram-gb", T.NONNEG_INT),
      req("duration", T.INT), req("exp-name", T.STR), req("disagg", T.BOOL),
      req("scenario-type", T.STR), opt("run-eval", T.BOOL), opt("eval-only", T.BOOL),
      opt("eval-conc", T.INT), opt("eval-framework", T.STR), opt("eval-suite", T.STR),
      opt("recipe-fingerprint", T.HEX64));

  private static final List<F> WORKER = List.of(
      req("num-worker", T.INT), req("tp", T.INT), def("pp", T.POS_INT, J.numberNode(1)),
      def("dcp-size", T.POS_INT, J.numberNode(1)), def("pcp-size", T.POS_INT, J.numberNode(1)),
      req("ep", T.INT), req("dp-attn", T.BOOL), opt("hardware", T.STR_NONEMPTY),
      def("additional-settings", T.STR_LIST_OR_NULL, J.arrayNode()));

  private static final List<F> COMPONENT = List.of(req("name", T.STR_NONEMPTY),
      req("version", T.STR_NONEMPTY));

  private static final List<F> BACKEND = List.of(req("name", T.STR_NONEMPTY),
      opt("version", T.STR_NONEMPTY));

  private List<F> fields() {
    return switch (this) {
      case SINGLE_NODE -> SN;
      case MULTI_NODE -> MN;
      case SINGLE_NODE_AGENTIC -> SNA;
      case MULTI_NODE_AGENTIC -> MNA;
    };
  }

  /** The reference model name, for messages. */
  public String modelName() {
    return switch (this) {
      case SINGLE_NODE -> "SingleNodeMatrixEntry";
      case MULTI_NODE -> "MultiNodeMatrixEntry";
      case SINGLE_NODE_AGENTIC -> "SingleNodeAgenticMatrixEntry";
      case MULTI_NODE_AGENTIC -> "MultiNodeAgenticMatrixEntry";
    };
  }

  /** A row in schema order with defaults, or the list of problems that make it invalid. */
  public record Outcome(ObjectNode row, List<String> problems) {
    public boolean valid() {
      return problems.isEmpty();
    }
  }

  /** Validates {@code row} against this schema and re-serializes it in schema order. */
  public Outcome apply(JsonNode row) {
    List<String> problems = new ArrayList<>();
    ObjectNode out = object(row, fields(), "", problems);
    if (problems.isEmpty()) {
      invariants(out, problems);
    }
    return new Outcome(out, List.copyOf(problems));
  }

  private static ObjectNode object(JsonNode in, List<F> fields, String path, List<String> problems) {
    ObjectNode out = J.objectNode();
    if (in == null || !in.isObject()) {
      problems.add(at(path) + "Input should be an object");
      return out;
    }
    Map<String, F> byName = new LinkedHashMap<>();
    fields.forEach(f -> byName.put(f.name(), f));
    for (Iterator<String> it = in.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!byName.containsKey(k)) {
        problems.add(at(path + k) + "Extra inputs are not permitted");
      }
    }
    for (F f : fields) {
      JsonNode v = in.get(f.name());
      String p = path + f.name();
      if (v == null || (v.isNull() && f.presence() != P.REQUIRED && f.type() != T.STR_LIST_OR_NULL)) {
        if (v != null && v.isNull() && f.presence() == P.DEFAULT) {
          problems.add(at(p) + "Input should not be null");
        } else if (f.presence() == P.REQUIRED) {
          problems.add(at(p) + "Field required");
        } else if (f.presence() == P.DEFAULT) {
          out.set(f.name(), f.def().deepCopy());
        }
        continue;
      }
      JsonNode checked = value(v, f.type(), p, problems);
      if (checked != null && !checked.isNull()) {
        out.set(f.name(), checked);
      }
    }
    return out;
  }

  private static JsonNode value(JsonNode v, T type, String p, List<String> problems) {
    switch (type) {
      case STR, STR_NONEMPTY -> {
        if (!v.isTextual()) {
          problems.add(at(p) + "Input should be a valid string");
        } else if (type == T.STR_NONEMPTY && v.textValue().isEmpty()) {
          problems.add(at(p) + "String should have at least 1 character");
        }
      }
      case INT -> {
        if (!v.isIntegralNumber()) {
          problems.add(at(p) + "Input should be a valid integer");
        }
      }
      case POS_INT, NONNEG_INT -> {
        if (!v.isIntegralNumber()) {
          problems.add(at(p) + "Input should be a valid integer");
        } else if (type == T.POS_INT ? v.longValue() <= 0 : v.longValue() < 0) {
          problems.add(at(p) + "Input should be greater than " + (type == T.POS_INT ? "0" : "or equal to 0"));
        }
      }
      case BOOL -> {
        if (!v.isBoolean()) {
          problems.add(at(p) + "Input should be a valid boolean");
        }
      }
      case FALSE -> {
        if (!v.isBoolean() || v.booleanValue()) {
          problems.add(at(p) + "Input should be False");
        }
      }
      case SPEC -> {
        if (!v.isTextual() || !SPEC_VALUES.contains(v.textValue())) {
          problems.add(at(p) + "Input should be 'mtp', 'draft_model' or 'none'");
        }
      }
      case KV -> {
        if (!v.isTextual() || !Set.of("none", "dram").contains(v.textValue())) {
          problems.add(at(p) + "Input should be 'none' or 'dram'");
        }
      }
      case HEX64 -> {
        if (!v.isTextual() || !HEX64.matcher(v.textValue()).matches()) {
          problems.add(at(p) + "String should match pattern '^[0-9a-f]{64}$'");
        }
      }
      case INT_LIST, INT_OR_INT_LIST -> {
        if (type == T.INT_OR_INT_LIST && v.isIntegralNumber()) {
          return v;
        }
        if (!v.isArray()) {
          problems.add(at(p) + "Input should be a valid list");
        } else {
          for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isIntegralNumber()) {
              problems.add(at(p + "." + i) + "Input should be a valid integer");
            }
          }
        }
      }
      case STR_LIST_OR_NULL -> {
        if (v.isNull()) {
          return null; // None is omitted from the dump
        }
        if (!v.isArray()) {
          problems.add(at(p) + "Input should be a valid list");
        } else {
          for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isTextual()) {
              problems.add(at(p + "." + i) + "Input should be a valid string");
            }
          }
        }
      }
      case WORKER -> {
        ObjectNode w = object(v, WORKER, p + ".", problems);
        if (w.path("tp").isIntegralNumber() && w.path("dcp-size").isIntegralNumber()
            && w.get("dcp-size").longValue() > 0
            && w.get("tp").longValue() % w.get("dcp-size").longValue() != 0) {
          problems.add(at(p) + "'tp' (" + w.get("tp") + ") must be divisible by 'dcp-size' ("
              + w.get("dcp-size") + ")");
        }
        return w;
      }
      case COMPONENT, BACKEND -> {
        ObjectNode c = object(v, type == T.COMPONENT ? COMPONENT : BACKEND, p + ".", problems);
        if (c.path("version").isTextual() && c.get("version").textValue().startsWith("image:")) {
          problems.add(at(p + ".version") + "component version must be a release, package "
              + "version, or source commit, not an image reference");
        }
        return c;
      }
      default -> throw new IllegalStateException(type.toString());
    }
    return v.deepCopy();
  }

  private void invariants(ObjectNode r, List<String> problems) {
    if ((this == SINGLE_NODE || this == SINGLE_NODE_AGENTIC)
        && r.get("tp").longValue() % r.get("dcp-size").longValue() != 0) {
      problems.add("'tp' (" + r.get("tp") + ") must be divisible by 'dcp-size' ("
          + r.get("dcp-size") + ")");
    }
    if (this == MULTI_NODE || this == MULTI_NODE_AGENTIC) {
      if (r.get("prefill").has("hardware") != r.get("decode").has("hardware")) {
        problems.add("'hardware' must be specified for both 'prefill' and 'decode', or neither");
      }
      if (r.get("disagg").booleanValue() && !r.has("kv-p2p-transfer")) {
        problems.add("disagg=true requires kv-p2p-transfer");
      }
    }
    if (this == SINGLE_NODE_AGENTIC || this == MULTI_NODE_AGENTIC) {
      boolean backend = r.has("kv-offload-backend");
      String kv = r.get("kv-offloading").textValue();
      if (kv.equals("none") && backend) {
        problems.add("kv-offload-backend can only be set when kv-offloading is not 'none'");
      } else if (!kv.equals("none") && !backend) {
        problems.add("kv-offload-backend is required when kv-offloading is '" + kv + "'");
      }
    }
  }

  private static String at(String path) {
    return path.isEmpty() ? "" : path + ": ";
  }
}
