package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reliability counts of one hardware in one run ({@code run-stats/*.json}:
 * {@code {gpu_key: {n_success, total}}}; InferenceX-app {@code run-stats-mapper.ts}).
 *
 * @param hardware GPU key
 * @param nSuccess successful benchmark jobs
 * @param total benchmark jobs
 */
public record RunStats(String hardware, double nSuccess, double total) {

  /**
   * Maps a run-stats object: unknown hardware keys and non-object entries are dropped; entries with
   * an unsupported {@code result_schema_version} are counted as unsupportedVersion.
   */
  public static List<RunStats> map(JsonNode data, SkipTracker tracker) {
    List<RunStats> rows = new ArrayList<>();
    if (data == null || !data.isContainerNode()) {
      return rows;
    }
    Iterator<Map.Entry<String, JsonNode>> it = data.isObject() ? data.properties().iterator() : java.util.Collections.emptyIterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode stats = e.getValue();
      if (!Normalizers.GPU_KEYS.contains(e.getKey()) || stats == null || !stats.isContainerNode()) {
        continue;
      }
      if (!Normalizers.hasSupportedResultSchemaVersion(stats)) {
        tracker.inc(SkipTracker.Skip.unsupportedVersion);
        continue;
      }
      if (!stats.has("n_success") || !stats.has("total")) {
        continue;
      }
      JsonNode n = stats.get("n_success");
      JsonNode t = stats.get("total");
      if (n.isNumber() && t.isNumber()) {
        rows.add(new RunStats(e.getKey(), n.doubleValue(), t.doubleValue()));
      }
    }
    return rows;
  }

  /** The reference's JSON shape. */
  public ObjectNode toJson() {
    ObjectNode o = Js.nodes().objectNode();
    o.put("hardware", hardware);
    o.set("nSuccess", Js.numberNode(nSuccess));
    o.set("total", Js.numberNode(total));
    return o;
  }
}
