package io.infx.testing;

import io.infx.core.tree.MapNode;
import io.infx.core.tree.Node;
import io.infx.core.tree.Source;
import io.infx.core.tree.Trees;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Variants of a team's own master file, one small change each, for properties such as "every
 * variant still validates and expands" or "our rule catches a doubled tp". The mutations, in
 * document order for every config:
 * <ul>
 *   <li>config level: {@code drop kv-p2p-transfer}, {@code drop router} (when written at the top);</li>
 *   <li>agentic block level: {@code drop dram-utilization} (when written);</li>
 *   <li>for every search-space entry (fixed-seq-len and agentic-coding blocks):
 *     <ul>
 *       <li>{@code double tp}: {@code tp} × 2 (single-node entries);</li>
 *       <li>{@code double <role> tp} and {@code double <role> num-worker} for each worker pool the entry
 *           writes ({@code prefill}, {@code decode}, the aggregate {@code worker});</li>
 *       <li>{@code double conc}: every {@code conc-list} value × 2, or {@code conc-end} × 2;</li>
 *       <li>{@code drop <key>}: removes one key the entry writes: {@code ep}, {@code dp-attn},
 *           {@code spec-decoding}, {@code dcp-size}, {@code router}, {@code kv-offloading},
 *           {@code kv-offload-backend}, {@code kv-p2p-transfer}, {@code num-nodes}, then the worker
 *           pools {@code prefill} and {@code decode}.</li>
 *     </ul></li>
 * </ul>
 * Many variants of a multi-node or agentic config are invalid on purpose (a disaggregated entry
 * without {@code decode} breaks V17, an agentic block without its {@code dram-utilization} V29):
 * loading one throws a {@link io.infx.core.ValidationException} located in the variant's text.
 * Variants are written back in block style (the user's comments and flow style are not kept).
 */
public final class ConfigMutators {

  /** Search-space keys a variant drops, one at a time, when the entry writes them. */
  static final List<String> OPTIONAL_KEYS = List.of("ep", "dp-attn", "spec-decoding", "dcp-size", "router",
      "kv-offloading", "kv-offload-backend", "kv-p2p-transfer", "num-nodes", "prefill", "decode");

  /** Worker pools of multi-node entries. */
  static final List<String> ROLES = List.of("prefill", "decode", "worker");

  /** Config-level keys a variant drops when the config writes them. */
  static final List<String> CONFIG_KEYS = List.of("kv-p2p-transfer", "router");

  private ConfigMutators() {}

  /**
   * Every variant of the master file {@code userConfig}, in document order (config, its config-level
   * drops, then block by block and entry by entry: double tp, double worker sizes, double conc, drop
   * keys).
   *
   * @throws io.infx.core.ValidationException when the file is not readable YAML (kind of the reader)
   * @throws IllegalArgumentException when the file is not a mapping of configs
   */
  public static List<ConfigVariant> allVariants(Source userConfig) {
    Objects.requireNonNull(userConfig, "userConfig");
    Node root = Trees.readYaml(userConfig);
    if (!(root instanceof MapNode)) {
      throw new IllegalArgumentException("'" + userConfig.label() + "' is not a mapping of master configs");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> plain = (Map<String, Object>) plain(root.toPlain());
    List<ConfigVariant> out = new ArrayList<>();
    for (String key : plain.keySet()) {
      for (String top : CONFIG_KEYS) {
        if (map(plain.get(key)).containsKey(top)) {
          out.add(variant(plain, key + ": drop " + top, key, c -> c.remove(top)));
        }
      }
      for (String scenario : List.of("fixed-seq-len", "agentic-coding")) {
        List<?> blocks = list(map(map(plain.get(key)).get("scenarios")).get(scenario));
        for (int b = 0; b < blocks.size(); b++) {
          int bi = b;
          if (map(blocks.get(b)).containsKey("dram-utilization")) {
            out.add(variant(plain, key + " /scenarios/" + scenario + "/" + b + ": drop dram-utilization", key,
                c -> block(c, scenario, bi).remove("dram-utilization")));
          }
          List<?> space = list(map(blocks.get(b)).get("search-space"));
          for (int i = 0; i < space.size(); i++) {
            entryVariants(plain, key, scenario, bi, i, map(space.get(i)), out);
          }
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * One variant of {@code userConfig} at a time, for {@code qt().forAll(...)}; shrinks towards the
   * first variant of {@link #allVariants}.
   *
   * @throws IllegalArgumentException when the file has no search-space entry to vary
   */
  public static Gen<ConfigVariant> variantsOf(Source userConfig) {
    List<ConfigVariant> all = allVariants(userConfig);
    if (all.isEmpty()) {
      throw new IllegalArgumentException("'" + userConfig.label() + "' has no search-space entry to vary");
    }
    return Generate.pick(all);
  }

  private static void entryVariants(Map<String, Object> plain, String key, String scenario, int b, int i,
      Map<String, Object> entry, List<ConfigVariant> out) {
    String where = key + " /scenarios/" + scenario + "/" + b + "/search-space/" + i + ": ";
    if (entry.get("tp") instanceof Number) {
      out.add(entryVariant(plain, where + "double tp", key, scenario, b, i, e -> e.put("tp", doubled(e.get("tp")))));
    }
    for (String role : ROLES) {
      Map<String, Object> worker = map(entry.get(role));
      for (String size : List.of("tp", "num-worker")) {
        if (worker.get(size) instanceof Number) {
          out.add(entryVariant(plain, where + "double " + role + " " + size, key, scenario, b, i,
              e -> map(e.get(role)).put(size, doubled(map(e.get(role)).get(size)))));
        }
      }
    }
    if (entry.get("conc-list") instanceof List<?>) {
      out.add(entryVariant(plain, where + "double conc", key, scenario, b, i, e -> e.put("conc-list",
          ((List<?>) e.get("conc-list")).stream().map(c -> c instanceof Number n ? n.longValue() * 2 : c).toList())));
    } else if (entry.get("conc-end") instanceof Number) {
      out.add(entryVariant(plain, where + "double conc", key, scenario, b, i,
          e -> e.put("conc-end", doubled(e.get("conc-end")))));
    }
    for (String optional : OPTIONAL_KEYS) {
      if (entry.containsKey(optional)) {
        out.add(entryVariant(plain, where + "drop " + optional, key, scenario, b, i, e -> e.remove(optional)));
      }
    }
  }

  private static long doubled(Object number) {
    return ((Number) number).longValue() * 2;
  }

  private static Map<String, Object> block(Map<String, Object> config, String scenario, int block) {
    return map(list(map(config.get("scenarios")).get(scenario)).get(block));
  }

  private static ConfigVariant entryVariant(Map<String, Object> plain, String description, String key,
      String scenario, int block, int index, Consumer<Map<String, Object>> change) {
    return variant(plain, description, key,
        c -> change.accept(map(list(block(c, scenario, block).get("search-space")).get(index))));
  }

  /** The whole file with {@code change} applied to a deep copy of config {@code key}. */
  private static ConfigVariant variant(Map<String, Object> plain, String description, String key,
      Consumer<Map<String, Object>> change) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) deepCopy(plain);
    change.accept(map(copy.get(key)));
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setIndent(2);
    options.setIndicatorIndent(0);
    return new ConfigVariant(description, new Yaml(options).dump(copy));
  }

  /** Plain YAML values SnakeYAML writes without Java tags (numbers as long or double). */
  private static Object plain(Object o) {
    if (o instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
      return out;
    }
    if (o instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(v -> out.add(plain(v)));
      return out;
    }
    if (o instanceof BigInteger i) {
      return i.longValue();
    }
    if (o instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (o instanceof Integer i) {
      return i.longValue();
    }
    return o;
  }

  private static Object deepCopy(Object o) {
    if (o instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put((String) k, deepCopy(v)));
      return out;
    }
    if (o instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(v -> out.add(deepCopy(v)));
      return out;
    }
    return o;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static List<?> list(Object o) {
    return o instanceof List<?> l ? l : List.of();
  }
}
