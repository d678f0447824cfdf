package io.infx.matrix.internal;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.python.PythonJson;
import io.infx.matrix.RowField;
import io.infx.matrix.RowField.Presence;
import io.infx.matrix.RowField.Slot;
import io.infx.matrix.RowField.Type;
import io.infx.matrix.RowKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The row rules, driven by the field table {@link RowField}: the type, presence and range checks
 * of every slot, the cross-field invariants of the reference's model validators, and the schema
 * form (schema order, defaults written out). One engine serves the generator's output check (V61),
 * the planner's re-serialization (V72) and JSON reading. Values are JSON-shaped Java values
 * (String, Integer, Boolean, List, Map, null); pydantic's semantics apply: an absent required field
 * is "Field required", {@code null} is a type error for a required field, an error for a defaulted
 * one, and means "absent" for an optional one.
 */
public final class RowRules {

  /**
   * One problem: the rule id, the RFC 6901 pointer of the value ({@code ""} for the whole row),
   * the dotted path the reference's messages use ({@code prefill.tp}) and the message.
   */
  public record Problem(String ruleId, String pointer, String path, String message) {
    /** {@code path: message}, as pydantic prints it. */
    public String render() {
      return path.isEmpty() ? message : path + ": " + message;
    }
  }

  private static final Set<String> SPEC = Set.of("mtp", "draft_model", "none");
  private static final Set<String> KV = Set.of("none", "dram");
  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

  private RowRules() {}

  /** Every problem of {@code row} (generator form) against {@code kind}; empty when valid. */
  public static List<Problem> check(Map<String, ?> row, RowKind kind) {
    return check(row, kind, false);
  }

  /**
   * Every problem of {@code row} against {@code kind}: in generator form, or (when
   * {@code schemaOnly}) against the reference model alone, as the planner re-serializes rows (V72).
   */
  public static List<Problem> check(Map<String, ?> row, RowKind kind, boolean schemaOnly) {
    List<Problem> p = new ArrayList<>(0);
    object(row, schemaOnly ? modelSlots(kind) : kind.slots(), "", "", p);
    if (p.isEmpty()) {
      invariants(row, kind, p);
    }
    return p;
  }

  /**
   * The generator's output check (rule V61): throws a {@code generation} error listing every
   * problem of {@code row} against {@code kind} (rule {@code V61.<field>} or the invariant's id).
   */
  public static void validate(Map<String, ?> row, RowKind kind) {
    List<Problem> problems = check(row, kind);
    if (!problems.isEmpty()) {
      String actual = PythonJson.dumpsValue(row);
      List<Violation> vs = new ArrayList<>();
      for (Problem p : problems) {
        vs.add(Violation.builder().ruleId(p.ruleId()).message(p.render()).actual(actual).build());
      }
      throw new ValidationException(ErrorKind.GENERATION, vs);
    }
  }

  /** The schema form of a valid row: slots in schema order, defaults written out, nulls omitted. */
  public static Row schemaForm(Map<String, ?> row, RowKind kind) {
    return form(row, modelSlots(kind));
  }

  private static List<Slot> modelSlots(RowKind kind) {
    return kind.slots().stream().filter(s -> s.presence() != Presence.GENERATOR_ONLY).toList();
  }

  @SuppressWarnings("unchecked")
  private static Row form(Map<String, ?> in, List<Slot> slots) {
    Row out = new Row();
    for (Slot s : slots) {
      String k = s.name();
      Object v = in.get(k);
      if (v == null) {
        if (!in.containsKey(k) && s.presence() == Presence.DEFAULTED) {
          out.put(k, s.defaultValue());
        }
        continue;
      }
      out.put(k, switch (s.type()) {
        case WORKER -> form((Map<String, ?>) v, RowField.WORKER);
        case COMPONENT -> form((Map<String, ?>) v, RowField.COMPONENT);
        case BACKEND -> form((Map<String, ?>) v, RowField.BACKEND);
        default -> v;
      });
    }
    return out;
  }

  private static void object(Map<String, ?> in, List<Slot> slots, String pointer, String path, List<Problem> p) {
    for (String k : in.keySet()) {
      if (!has(slots, k)) {
        p.add(new Problem("V61.extra", pointer + "/" + escape(k), path + k, "Extra inputs are not permitted"));
      }
    }
    for (Slot s : slots) {
      String k = s.name();
      Object v = in.get(k);
      if (v != null && plainlyValid(v, s.type())) {
        continue; // the common case: no problem, so no pointer or path strings to build
      }
      String ptr = pointer + "/" + k;
      String pth = path + k;
      if (v == null && (!in.containsKey(k) || (s.presence() != Presence.REQUIRED
          && s.type() != Type.TEXT_LIST_OR_NULL))) {
        if (in.containsKey(k) && s.presence() == Presence.DEFAULTED) {
          p.add(new Problem(s.ruleId(), ptr, pth, "Input should not be null"));
        } else if (!in.containsKey(k) && s.presence() == Presence.REQUIRED) {
          p.add(new Problem(s.ruleId(), ptr, pth, "Field required"));
        }
        continue;
      }
      value(v, s, ptr, pth, p);
    }
  }

  /** A fast yes for well-typed scalar values; {@code false} means "check in full". */
  private static boolean plainlyValid(Object v, Type t) {
    return switch (t) {
      case TEXT -> v instanceof String;
      case NON_EMPTY_TEXT -> v instanceof String str && !str.isEmpty();
      case INT -> v instanceof Integer;
      case POSITIVE_INT -> v instanceof Integer i && i > 0;
      case NON_NEGATIVE_INT -> v instanceof Integer i && i >= 0;
      case BOOL -> v instanceof Boolean;
      case FALSE -> Boolean.FALSE.equals(v);
      case SPEC_DECODING -> v instanceof String str && SPEC.contains(str);
      case KV_OFFLOADING -> v instanceof String str && KV.contains(str);
      case INT_OR_INT_LIST -> v instanceof Integer || allOf(v, Integer.class);
      case INT_LIST -> allOf(v, Integer.class);
      case TEXT_LIST_OR_NULL -> allOf(v, String.class);
      default -> false;
    };
  }

  private static boolean allOf(Object v, Class<?> type) {
    if (!(v instanceof List<?> l)) {
      return false;
    }
    for (Object x : l) {
      if (!type.isInstance(x)) {
        return false;
      }
    }
    return true;
  }

  private static boolean has(List<Slot> slots, String k) {
    for (Slot s : slots) {
      if (s.name().equals(k)) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private static void value(Object v, Slot s, String ptr, String pth, List<Problem> p) {
    String rule = s.ruleId();
    switch (s.type()) {
      case TEXT, NON_EMPTY_TEXT -> {
        if (!(v instanceof String str)) {
          p.add(new Problem(rule, ptr, pth, "Input should be a valid string"));
        } else if (s.type() == Type.NON_EMPTY_TEXT && str.isEmpty()) {
          p.add(new Problem(rule, ptr, pth, "String should have at least 1 character"));
        }
      }
      case INT -> integer(v, rule, ptr, pth, p);
      case POSITIVE_INT, NON_NEGATIVE_INT -> {
        if (integer(v, rule, ptr, pth, p)) {
          int i = (Integer) v;
          if (s.type() == Type.POSITIVE_INT ? i <= 0 : i < 0) {
            p.add(new Problem(rule, ptr, pth, "Input should be greater than "
                + (s.type() == Type.POSITIVE_INT ? "0" : "or equal to 0")));
          }
        }
      }
      case BOOL -> {
        if (!(v instanceof Boolean)) {
          p.add(new Problem(rule, ptr, pth, "Input should be a valid boolean"));
        }
      }
      case FALSE -> {
        if (!Boolean.FALSE.equals(v)) {
          p.add(new Problem(rule, ptr, pth, "Input should be False"));
        }
      }
      case SPEC_DECODING -> {
        if (!(v instanceof String str) || !SPEC.contains(str)) {
          p.add(new Problem(rule, ptr, pth, "Input should be 'mtp', 'draft_model' or 'none'"));
        }
      }
      case KV_OFFLOADING -> {
        if (!(v instanceof String str) || !KV.contains(str)) {
          p.add(new Problem(rule, ptr, pth, "Input should be 'none' or 'dram'"));
        }
      }
      case HEX64 -> {
        if (!(v instanceof String str) || !HEX64.matcher(str).matches()) {
          p.add(new Problem(rule, ptr, pth, "String should match pattern '^[0-9a-f]{64}$'"));
        }
      }
      case INT_LIST, INT_OR_INT_LIST -> {
        if (s.type() == Type.INT_OR_INT_LIST && v instanceof Integer) {
          return;
        }
        if (!(v instanceof List<?> l)) {
          p.add(new Problem(rule, ptr, pth, "Input should be a valid list"));
        } else {
          for (int i = 0; i < l.size(); i++) {
            integer(l.get(i), rule, ptr + "/" + i, pth + "." + i, p);
          }
        }
      }
      case TEXT_LIST_OR_NULL -> {
        if (v == null) {
          return;
        }
        if (!(v instanceof List<?> l)) {
          p.add(new Problem(rule, ptr, pth, "Input should be a valid list"));
        } else {
          for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof String)) {
              p.add(new Problem(rule, ptr + "/" + i, pth + "." + i, "Input should be a valid string"));
            }
          }
        }
      }
      case WORKER -> {
        if (!(v instanceof Map<?, ?> m)) {
          p.add(new Problem(rule, ptr, pth, "Input should be an object"));
          return;
        }
        Map<String, ?> w = (Map<String, ?>) m;
        object(w, RowField.WORKER, ptr, pth + ".", p);
        Object dcp = w.containsKey("dcp-size") ? w.get("dcp-size") : Integer.valueOf(1);
        if (w.get("tp") instanceof Integer tp && dcp instanceof Integer d && d > 0 && tp % d != 0) {
          p.add(new Problem("V61.dcp-divides-tp", ptr, pth, "'tp' (" + tp + ") must be divisible by 'dcp-size' ("
              + d + ")"));
        }
      }
      case COMPONENT, BACKEND -> {
        if (!(v instanceof Map<?, ?> m)) {
          p.add(new Problem(rule, ptr, pth, "Input should be an object"));
          return;
        }
        Map<String, ?> c = (Map<String, ?>) m;
        object(c, s.type() == Type.COMPONENT ? RowField.COMPONENT : RowField.BACKEND, ptr, pth + ".", p);
        if (c.get("version") instanceof String version && version.startsWith("image:")) {
          p.add(new Problem(rule, ptr + "/version", pth + ".version", "component version must be a release, "
              + "package version, or source commit, not an image reference"));
        }
      }
      default -> throw new IllegalStateException(s.type().toString());
    }
  }

  private static boolean integer(Object v, String rule, String ptr, String pth, List<Problem> p) {
    if (v instanceof Integer) {
      return true;
    }
    p.add(new Problem(rule, ptr, pth, v instanceof Long || v instanceof java.math.BigInteger
        ? "Input should be a valid integer (32-bit)" : "Input should be a valid integer"));
    return false;
  }

  /** The model validators of the reference, checked once every field is valid. */
  private static void invariants(Map<String, ?> r, RowKind kind, List<Problem> p) {
    if (!kind.multiNode()) {
      int tp = (Integer) r.get("tp");
      int dcp = (Integer) r.get("dcp-size");
      if (tp % dcp != 0) {
        p.add(new Problem("V61.dcp-divides-tp", "", "", "'tp' (" + tp + ") must be divisible by 'dcp-size' ("
            + dcp + ")"));
      }
    } else {
      if (hasHardware(r.get("prefill")) != hasHardware(r.get("decode"))) {
        p.add(new Problem("V61.hardware-pair", "", "",
            "'hardware' must be specified for both 'prefill' and 'decode', or neither"));
      }
      if (Boolean.TRUE.equals(r.get("disagg")) && r.get("kv-p2p-transfer") == null) {
        p.add(new Problem("V61.disagg-transfer", "", "", "disagg=true requires kv-p2p-transfer"));
      }
    }
    if (kind.agentic()) {
      boolean backend = r.get("kv-offload-backend") != null;
      Object kv = r.get("kv-offloading");
      if ("none".equals(kv) && backend) {
        p.add(new Problem("V61.kv-offload-backend", "", "",
            "kv-offload-backend can only be set when kv-offloading is not 'none'"));
      } else if (!"none".equals(kv) && !backend) {
        p.add(new Problem("V61.kv-offload-backend", "", "",
            "kv-offload-backend is required when kv-offloading is '" + kv + "'"));
      }
    }
  }

  private static boolean hasHardware(Object worker) {
    return worker instanceof Map<?, ?> w && w.get("hardware") != null;
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}
