package io.infx.matrix.changelog.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.python.PythonJson;
import io.infx.matrix.changelog.ConfigText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Master-config files parsed as plain YAML, without schema validation (reference
 * {@code load_config_files(validate=False)}): the file-level rules only — each file a mapping,
 * no {@code *} in keys, no key in two files. The append-only scope check compares these trees.
 */
public final class RawMasters {

  private RawMasters() {}

  /** Config key → parsed entry, in catalogue order. */
  public static Map<String, JsonNode> load(List<ConfigText> files, ErrorKind kind) {
    Map<String, JsonNode> all = new LinkedHashMap<>();
    for (ConfigText file : files) {
      JsonNode root = YamlTree.parse(file.text(), file.name(), l -> l,
          YamlTree.Duplicates.LAST_WINS, kind).root();
      if (!(root instanceof ObjectNode obj)) {
        throw new InfxException(kind, "Config file '" + file.name() + "' must contain a dictionary");
      }
      TreeSet<String> duplicates = new TreeSet<>();
      obj.fieldNames().forEachRemaining(key -> {
        if (key.contains("*")) {
          throw new InfxException(kind,
              " Wildcard '*' is not allowed in master config keys: '" + key + "' (" + file.name() + ")");
        }
        if (all.containsKey(key)) {
          duplicates.add(key);
        }
      });
      if (!duplicates.isEmpty()) {
        throw new InfxException(kind, "Duplicate configuration keys found in '" + file.name()
            + "': " + String.join(", ", duplicates));
      }
      obj.fields().forEachRemaining(e -> all.put(e.getKey(), e.getValue()));
    }
    return all;
  }

  /** Structural equality of parsed YAML values, insensitive to mapping key order. */
  public static boolean same(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    return PythonJson.dumpsCompactSorted(a).equals(PythonJson.dumpsCompactSorted(b));
  }
}
