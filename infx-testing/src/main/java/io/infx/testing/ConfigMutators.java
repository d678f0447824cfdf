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
 * variant still validates and expands" or "our rule catches a doubled tp". For every search-space
 * entry (fixed-seq-len and agentic-coding blocks of every config) the mutations are:
 * <ul>
 *   <li>{@code double tp}: {@code tp} × 2;</li>
 *   <li>{@code double conc}: every {@code conc-list} value × 2, or {@code conc-end} × 2;</li>
 *   <li>{@code drop <key>}: removes one optional key the entry writes ({@code ep}, {@code dp-attn},
 *       {@code spec-decoding}, {@code dcp-size}, {@code router}).</li>
 * </ul>
 * Variants are written back in block style (the user's comments and flow style are not kept).
 */
public final class ConfigMutators {

  /** Optional search-space keys whose absence takes the schema's default. */
  static final List<String> OPTIONAL_KEYS = List.of("ep", "dp-attn", "spec-decoding", "dcp-size", "router");

  private ConfigMutators() {}

  /**
   * Every variant of the master file {@code userConfig}, in document order (config, block, entry,
   * then double tp, double conc, drop keys).
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
      for (String scenario : List.of("fixed-seq-len", "agentic-coding")) {
        List<?> blocks = list(map(map(plain.get(key)).get("scenarios")).get(scenario));
        for (int b = 0; b < blocks.size(); b++) {
          List<?> space = list(map(blocks.get(b)).get("search-space"));
          for (int i = 0; i < space.size(); i++) {
            String where = key + " /scenarios/" + scenario + "/" + b + "/search-space/" + i + ": ";
            Map<String, Object> entry = map(space.get(i));
            int bi = b;
            int ii = i;
            if (entry.get("tp") instanceof Number) {
              out.add(variant(plain, where + "double tp", key, scenario, bi, ii,
                  e -> e.put("tp", ((Number) e.get("tp")).longValue() * 2)));
            }
            if (entry.get("conc-list") instanceof List<?>) {
              out.add(variant(plain, where + "double conc", key, scenario, bi, ii, e -> e.put("conc-list",
                  ((List<?>) e.get("conc-list")).stream().map(c -> c instanceof Number n ? n.longValue() * 2 : c).toList())));
            } else if (entry.get("conc-end") instanceof Number) {
              out.add(variant(plain, where + "double conc", key, scenario, bi, ii,
                  e -> e.put("conc-end", ((Number) e.get("conc-end")).longValue() * 2)));
            }
            for (String optional : OPTIONAL_KEYS) {
              if (entry.containsKey(optional)) {
                out.add(variant(plain, where + "drop " + optional, key, scenario, bi, ii, e -> e.remove(optional)));
              }
            }
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

  private static ConfigVariant variant(Map<String, Object> plain, String description, String key, String scenario,
      int block, int index, Consumer<Map<String, Object>> change) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) deepCopy(plain);
    Map<String, Object> entry = map(list(map(list(map(map(copy.get(key)).get("scenarios")).get(scenario))
        .get(block)).get("search-space")).get(index));
    change.accept(entry);
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
