package io.infx.matrix.changelog;

import io.infx.matrix.RowField;
import io.infx.matrix.ScenarioType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.python.PythonJson;
import io.infx.matrix.changelog.internal.RawMasters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The append-only rules (spec §6.6, V70–V71; reference {@code validate_append_only_scope} and
 * {@code append_only_delta}): an append-only entry may only add points to curves that already
 * exist, and may not touch anything it did not select.
 */
public final class AppendOnly {

  private AppendOnly() {}

  private static InfxException error(String message) {
    return new InfxException(ChangelogEntries.KIND, message);
  }

  /**
   * V70: edits are confined to the selected configs and scenarios.
   *
   * @param base parsed base master configs (key → entry)
   * @param head parsed head master configs
   * @param selected config key → scenarios its entries select
   * @throws InfxException kind {@code changelog} naming the offending configs
   */
  public static void checkScope(Map<String, JsonNode> base, Map<String, JsonNode> head,
      Map<String, Set<ScenarioType>> selected) {
    TreeSet<String> missing = new TreeSet<>(selected.keySet());
    missing.removeAll(base.keySet());
    if (!missing.isEmpty()) {
      throw error("append-only requires every selected config to exist in the base revision; "
          + "missing: " + pyList(missing));
    }
    Set<String> all = new LinkedHashSet<>(base.keySet());
    all.addAll(head.keySet());
    TreeSet<String> unrelated = new TreeSet<>();
    for (String key : all) {
      if (!selected.containsKey(key) && !RawMasters.same(base.get(key), head.get(key))) {
        unrelated.add(key);
      }
    }
    if (!unrelated.isEmpty()) {
      throw error("append-only PR changed configs not selected by its changelog entry: "
          + pyList(unrelated));
    }
    for (Map.Entry<String, Set<ScenarioType>> sel : selected.entrySet()) {
      String config = sel.getKey();
      JsonNode baseConfig = base.get(config);
      JsonNode headConfig = head.get(config);
      JsonNode baseScenarios = baseConfig.path("scenarios");
      JsonNode headScenarios = headConfig == null ? null : headConfig.path("scenarios");
      if (headScenarios == null || !fieldNames(baseScenarios).equals(fieldNames(headScenarios))) {
        throw error("append-only added or removed a scenario in config '" + config + "'");
      }
      Set<String> allowed = new HashSet<>();
      sel.getValue().forEach(t -> allowed.add(t.wire()));
      Set<String> unselected = new LinkedHashSet<>(fieldNames(baseScenarios));
      unselected.removeAll(allowed);
      if (!unselected.isEmpty()
          && !RawMasters.same(withoutScenarios(baseConfig), withoutScenarios(headConfig))) {
        throw error("append-only changed config-wide fields that can affect scenarios outside "
            + "its changelog scope: '" + config + "'");
      }
      for (String scenario : fieldNames(baseScenarios)) {
        if (!allowed.contains(scenario)
            && !RawMasters.same(baseScenarios.get(scenario), headScenarios.get(scenario))) {
          throw error("append-only changed a scenario outside its changelog scope: '" + config
              + "' / '" + scenario + "'");
        }
      }
    }
  }

  private static Set<String> fieldNames(JsonNode n) {
    Set<String> names = new LinkedHashSet<>();
    if (n != null) {
      n.fieldNames().forEachRemaining(names::add);
    }
    return names;
  }

  private static JsonNode withoutScenarios(JsonNode config) {
    if (!(config instanceof ObjectNode o)) {
      return config;
    }
    ObjectNode copy = o.deepCopy();
    copy.remove("scenarios");
    return copy;
  }

  /** The curve a row belongs to: its recipe identity as canonical text. */
  static String curveKey(ObjectNode row) {
    return RecipeFingerprint.canonicalRecipe(row);
  }

  /** The dashboard line an appended recipe must join (reference visual series key). */
  static List<Object> visualSeriesKey(ObjectNode row) {
    boolean agentic = "agentic-coding".equals(text(row.get("scenario-type")));
    JsonNode kv = row.get("kv-offloading");
    boolean offloadOff = kv == null || kv.isNull() || "".equals(text(kv)) || "none".equals(text(kv));
    JsonNode prefill = row.path("prefill");
    JsonNode decode = row.path("decode");
    return Arrays.asList(
        canon(row.get("model")), canon(row.get(RowField.MODEL_PREFIX.key())), canon(row.get("precision")),
        canon(row.get("framework")), canon(row.get("runner")),
        truthy(row.get("disagg")),
        agentic ? "agentic_traces" : "single_turn",
        agentic ? null : canon(row.get("isl")), agentic ? null : canon(row.get("osl")),
        offloadOff ? "off" : "on",
        agentic ? "" : (row.has(RowField.SPEC_DECODING.key()) ? canon(row.get(RowField.SPEC_DECODING.key())) : "\"none\""),
        prefill.isObject() ? canon(prefill.get("hardware")) : null,
        decode.isObject() ? canon(decode.get("hardware")) : null);
  }

  private static String canon(JsonNode n) {
    return n == null ? null : PythonJson.dumpsCompactSorted(n);
  }

  private static String text(JsonNode n) {
    return n != null && n.isTextual() ? n.textValue() : null;
  }

  private static boolean truthy(JsonNode n) {
    if (n == null || n.isNull()) {
      return false;
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isNumber()) {
      return n.doubleValue() != 0;
    }
    if (n.isTextual()) {
      return !n.textValue().isEmpty();
    }
    return !n.isEmpty();
  }

  private static List<Long> concurrencies(ObjectNode row) {
    JsonNode conc = row.get("conc");
    if (conc != null && conc.isIntegralNumber()) {
      return List.of(conc.longValue());
    }
    if (conc != null && conc.isArray() && !conc.isEmpty()) {
      List<Long> out = new ArrayList<>();
      for (JsonNode v : conc) {
        if (!v.isIntegralNumber()) {
          throw error("append-only matrix entry has invalid concurrency value: " + conc);
        }
        out.add(v.longValue());
      }
      return out;
    }
    throw error("append-only matrix entry has invalid concurrency value: " + conc);
  }

  /**
   * V71: the points {@code head} adds to {@code base}, both generated with the same command.
   * Single-concurrency rows are kept when their point is new; list rows keep only their new,
   * not yet emitted values, in source order.
   *
   * @throws InfxException kind {@code changelog}: no base curve; a base curve changed or
   *     vanished; a base point vanished (message lists them); nothing added; an addition that
   *     does not join an existing visual series with exactly one, unchanged image
   */
  public static List<ObjectNode> delta(List<ObjectNode> base, List<ObjectNode> head) {
    Map<String, Set<Long>> baseCurves = new LinkedHashMap<>();
    Map<String, Set<Long>> headCurves = new LinkedHashMap<>();
    for (ObjectNode row : base) {
      baseCurves.computeIfAbsent(curveKey(row), k -> new HashSet<>()).addAll(concurrencies(row));
    }
    for (ObjectNode row : head) {
      headCurves.computeIfAbsent(curveKey(row), k -> new HashSet<>()).addAll(concurrencies(row));
    }
    if (baseCurves.isEmpty()) {
      throw error("append-only requires an existing curve in the base revision");
    }
    if (!headCurves.keySet().containsAll(baseCurves.keySet())) {
      throw error("append-only may not remove or modify existing generated recipes");
    }
    for (Map.Entry<String, Set<Long>> e : baseCurves.entrySet()) {
      TreeSet<Long> removed = new TreeSet<>(e.getValue());
      removed.removeAll(headCurves.get(e.getKey()));
      if (!removed.isEmpty()) {
        throw error("append-only may not remove existing concurrency points: " + removed);
      }
    }
    List<ObjectNode> delta = new ArrayList<>();
    Map<String, Set<Long>> emitted = new HashMap<>();
    for (ObjectNode row : head) {
      String key = curveKey(row);
      Set<Long> added = new HashSet<>(headCurves.get(key));
      added.removeAll(baseCurves.getOrDefault(key, Set.of()));
      Set<Long> done = emitted.computeIfAbsent(key, k -> new HashSet<>());
      JsonNode conc = row.get("conc");
      if (conc.isIntegralNumber()) {
        if (added.contains(conc.longValue()) && done.add(conc.longValue())) {
          delta.add(row);
        }
        continue;
      }
      ArrayNode kept = row.arrayNode();
      for (Iterator<JsonNode> it = conc.elements(); it.hasNext(); ) {
        JsonNode v = it.next();
        if (added.contains(v.longValue()) && done.add(v.longValue())) {
          kept.add(v);
        }
      }
      if (!kept.isEmpty()) {
        ObjectNode copy = row.deepCopy();
        copy.set("conc", kept);
        delta.add(copy);
      }
    }
    if (delta.isEmpty()) {
      throw error("append-only did not add any generated points");
    }
    Map<List<Object>, Set<String>> imagesBySeries = new HashMap<>();
    for (ObjectNode row : base) {
      imagesBySeries.computeIfAbsent(visualSeriesKey(row), k -> new HashSet<>())
          .add(canon(row.get("image")));
    }
    for (ObjectNode row : delta) {
      Set<String> images = imagesBySeries.getOrDefault(visualSeriesKey(row), Set.of());
      JsonNode image = row.get("image");
      if (image == null || image.isNull() || !images.equals(Set.of(canon(image)))) {
        throw error("append-only additions must belong to an existing visual curve with one "
            + "unchanged non-null image");
      }
    }
    return delta;
  }

  private static String pyList(Set<String> items) {
    StringBuilder sb = new StringBuilder("[");
    for (String s : items) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      sb.append('\'').append(s).append('\'');
    }
    return sb.append(']').toString();
  }
}
