package io.infx.matrix.internal;

import io.infx.core.python.PythonJson;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.RowKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Output validation of matrix rows (rule V61): the schema of each row kind — required fields and
 * their types, no unknown field, strict positive sizes, {@code tp} divisible by {@code dcp-size},
 * hardware on both workers or neither, offload mode and backend consistent, a transfer engine on
 * disaggregated rows, a positive {@code node-count}, a 64-hex {@code recipe-fingerprint}.
 */
public final class RowSchema {

  private static final Set<String> SPEC = Set.of("mtp", "draft_model", "none");
  private static final Set<String> KV = Set.of("none", "dram");
  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

  private RowSchema() {}

  /** Throws a {@code generation} error listing what is wrong with {@code row}. */
  public static void validate(Map<String, Object> row, RowKind kind) {
    List<String> problems = problems(row, kind);
    if (!problems.isEmpty()) {
      List<Violation> vs = new ArrayList<>();
      for (String p : problems) {
        vs.add(Violation.builder().ruleId("V61.output-row").message(p).actual(PythonJson.dumpsValue(row)).build());
      }
      throw new ValidationException("generation", vs);
    }
  }

  /** Every problem of {@code row} against {@code kind}'s schema; empty when valid. */
  public static List<String> problems(Map<String, Object> row, RowKind kind) {
    List<String> p = new ArrayList<>();
    for (String k : row.keySet()) {
      if (!kind.schemaFields().contains(k)) {
        p.add(k + ": Extra inputs are not permitted");
      }
    }
    for (String k : List.of("image", "model", "model-prefix", "precision", "framework", "runner", "exp-name")) {
      str(row, k, true, false, p);
    }
    str(row, "srt-recipe", false, true, p);
    str(row, "eval-srt-recipe", false, true, p);
    str(row, "eval-framework", false, false, p);
    str(row, "eval-suite", false, false, p);
    bool(row, "eval-only", false, p);
    hex(row, p);
    switch (kind) {
      case SINGLE_NODE -> {
        literal(row, "spec-decoding", SPEC, true, p);
        for (String k : List.of("isl", "osl", "tp", "ep", "max-model-len")) {
          integer(row, k, true, false, p);
        }
        for (String k : List.of("pp", "dcp-size", "pcp-size")) {
          integer(row, k, true, true, p);
        }
        bool(row, "dp-attn", true, p);
        Object conc = row.get("conc");
        if (!(conc instanceof Integer) && !intList(conc)) {
          p.add("conc: Input should be a valid integer");
        }
        if (!Boolean.FALSE.equals(row.get("disagg"))) {
          p.add("disagg: Input should be False");
        }
        bool(row, "run-eval", true, p);
        bool(row, "require-power", false, p);
        component(row, "router", true, p);
        dcp(row, "", p);
      }
      case MULTI_NODE -> {
        literal(row, "spec-decoding", SPEC, true, p);
        nodeCount(row, p);
        for (String k : List.of("isl", "osl", "max-model-len")) {
          integer(row, k, true, false, p);
        }
        worker(row, "prefill", p);
        worker(row, "decode", p);
        if (!intList(row.get("conc"))) {
          p.add("conc: Input should be a valid list of integers");
        }
        bool(row, "disagg", true, p);
        bool(row, "run-eval", true, p);
        bool(row, "require-power", false, p);
        bool(row, "eval-all-concs", false, p);
        integer(row, "eval-conc", false, false, p);
        component(row, "router", true, p);
        str(row, "kv-p2p-transfer", false, true, p);
        hardwarePair(row, p);
        transfer(row, p);
      }
      case SINGLE_NODE_AGENTIC -> {
        for (String k : List.of("tp", "ep", "duration")) {
          integer(row, k, true, false, p);
        }
        for (String k : List.of("pp", "dcp-size", "pcp-size")) {
          integer(row, k, true, true, p);
        }
        bool(row, "dp-attn", true, p);
        literal(row, "spec-decoding", SPEC, false, p);
        integer(row, "conc", true, false, p);
        agentic(row, p);
        dcp(row, "", p);
      }
      case MULTI_NODE_AGENTIC -> {
        literal(row, "spec-decoding", SPEC, true, p);
        nodeCount(row, p);
        worker(row, "prefill", p);
        worker(row, "decode", p);
        if (!intList(row.get("conc"))) {
          p.add("conc: Input should be a valid list of integers");
        }
        integer(row, "duration", true, false, p);
        bool(row, "disagg", true, p);
        integer(row, "eval-conc", false, false, p);
        str(row, "kv-p2p-transfer", false, true, p);
        agentic(row, p);
        hardwarePair(row, p);
        transfer(row, p);
      }
    }
    return p;
  }

  private static void agentic(Map<String, Object> row, List<String> p) {
    literal(row, "kv-offloading", KV, true, p);
    Object budget = row.get("total-cpu-dram-gb");
    if (!(budget instanceof Integer i) || i < 0) {
      p.add("total-cpu-dram-gb: Input should be an integer greater than or equal to 0");
    }
    str(row, "scenario-type", true, false, p);
    if (row.containsKey("run-eval") && row.get("run-eval") != null) {
      bool(row, "run-eval", false, p);
    }
    component(row, "kv-offload-backend", false, p);
    component(row, "router", true, p);
    Object kv = row.get("kv-offloading");
    boolean backend = row.get("kv-offload-backend") != null;
    if ("none".equals(kv) && backend) {
      p.add("kv-offload-backend can only be set when kv-offloading is not 'none'");
    } else if (kv != null && !"none".equals(kv) && !backend) {
      p.add("kv-offload-backend is required when kv-offloading is '" + kv + "'");
    }
  }

  private static void nodeCount(Map<String, Object> row, List<String> p) {
    Object n = row.get("node-count");
    if (!(n instanceof Integer i) || i <= 0) {
      p.add("node-count: Input should be greater than 0");
    }
  }

  private static void transfer(Map<String, Object> row, List<String> p) {
    if (Boolean.TRUE.equals(row.get("disagg")) && row.get("kv-p2p-transfer") == null) {
      p.add("disagg=true requires kv-p2p-transfer");
    }
  }

  private static void hardwarePair(Map<String, Object> row, List<String> p) {
    if (row.get("prefill") instanceof Map<?, ?> pf && row.get("decode") instanceof Map<?, ?> dc) {
      boolean a = pf.get("hardware") instanceof String s && !s.isEmpty();
      boolean b = dc.get("hardware") instanceof String s && !s.isEmpty();
      if (a != b) {
        p.add("'hardware' must be specified for both 'prefill' and 'decode', or neither");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void worker(Map<String, Object> row, String role, List<String> p) {
    if (!(row.get(role) instanceof Map<?, ?> w)) {
      p.add(role + ": Field required");
      return;
    }
    Map<String, Object> worker = (Map<String, Object>) w;
    for (String k : worker.keySet()) {
      if (!RowKind.WORKER_FIELDS.contains(k)) {
        p.add(role + "." + k + ": Extra inputs are not permitted");
      }
    }
    for (String k : List.of("num-worker", "tp", "ep")) {
      integer(worker, k, true, false, p);
    }
    for (String k : List.of("pp", "dcp-size", "pcp-size")) {
      integer(worker, k, false, true, p);
    }
    bool(worker, "dp-attn", true, p);
    if (worker.get("hardware") != null) {
      str(worker, "hardware", false, true, p);
    }
    Object s = worker.get("additional-settings");
    if (s != null && !(s instanceof List<?> l && l.stream().allMatch(x -> x instanceof String))) {
      p.add(role + ".additional-settings: Input should be a valid list of strings");
    }
    dcp(worker, role + ".", p);
  }

  private static void dcp(Map<String, Object> m, String prefix, List<String> p) {
    if (m.get("tp") instanceof Integer tp) {
      Object d = m.getOrDefault("dcp-size", 1);
      if (d instanceof Integer dcp && dcp > 0 && tp % dcp != 0) {
        p.add(prefix + "'tp' (" + tp + ") must be divisible by 'dcp-size' (" + dcp + ")");
      }
    }
  }

  private static void component(Map<String, Object> row, String key, boolean versionRequired, List<String> p) {
    Object v = row.get(key);
    if (v == null) {
      return;
    }
    if (!(v instanceof Map<?, ?> m) || !(m.get("name") instanceof String name) || name.isEmpty()) {
      p.add(key + ": Input should be a component with a non-empty name");
      return;
    }
    Object version = m.get("version");
    if (version == null ? versionRequired : !(version instanceof String s) || s.isEmpty() || s.startsWith("image:")) {
      p.add(key + ".version: Input should be a non-empty component version");
    }
  }

  private static void hex(Map<String, Object> row, List<String> p) {
    Object v = row.get("recipe-fingerprint");
    if (v != null && !(v instanceof String s && HEX64.matcher(s).matches())) {
      p.add("recipe-fingerprint: String should match pattern '^[0-9a-f]{64}$'");
    }
  }

  private static void literal(Map<String, Object> row, String key, Set<String> allowed, boolean required,
      List<String> p) {
    Object v = row.get(key);
    if (v == null) {
      if (required) {
        p.add(key + ": Field required");
      }
      return;
    }
    if (!(v instanceof String s) || !allowed.contains(s)) {
      p.add(key + ": Input should be one of " + allowed);
    }
  }

  private static void str(Map<String, Object> row, String key, boolean required, boolean nonEmpty, List<String> p) {
    Object v = row.get(key);
    if (v == null) {
      if (required) {
        p.add(key + ": Field required");
      }
      return;
    }
    if (!(v instanceof String s)) {
      p.add(key + ": Input should be a valid string");
    } else if (nonEmpty && s.isEmpty()) {
      p.add(key + ": String should have at least 1 character");
    }
  }

  private static void integer(Map<String, Object> row, String key, boolean required, boolean positive,
      List<String> p) {
    Object v = row.get(key);
    if (v == null) {
      if (required) {
        p.add(key + ": Field required");
      }
      return;
    }
    if (!(v instanceof Integer i)) {
      p.add(key + ": Input should be a valid integer");
    } else if (positive && i <= 0) {
      p.add(key + ": Input should be greater than 0");
    }
  }

  private static void bool(Map<String, Object> row, String key, boolean required, List<String> p) {
    Object v = row.get(key);
    if (v == null) {
      if (required) {
        p.add(key + ": Field required");
      }
      return;
    }
    if (!(v instanceof Boolean)) {
      p.add(key + ": Input should be a valid boolean");
    }
  }

  private static boolean intList(Object v) {
    return v instanceof List<?> l && l.stream().allMatch(x -> x instanceof Integer);
  }
}
