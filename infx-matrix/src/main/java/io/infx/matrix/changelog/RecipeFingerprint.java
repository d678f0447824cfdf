package io.infx.matrix.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.python.PythonJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The recipe fingerprint of a matrix row: one hash per curve, identical across the concurrencies
 * of one recipe.
 *
 * <p>Rule (reference {@code infx.matrix.plan.recipe_fingerprint} at 07db303e, pinned by the
 * conformance corpus): take the row in its <em>generator form</em> (the keys
 * {@code generate test-config --no-evals} prints, before planner defaults are written out), drop
 * {@code conc}, {@code exp-name} and {@code recipe-fingerprint}, move historical
 * {@code CONFIG_FILE=}/{@code EVAL_CONFIG_FILE=} worker settings into {@code srt-recipe}/
 * {@code eval-srt-recipe}, serialize as Python's
 * {@code json.dumps(sort_keys=True, separators=(",",":"), ensure_ascii=True)} and hash the UTF-8
 * bytes with SHA-256. The result is 64 lowercase hex characters.
 */
public final class RecipeFingerprint {

  private static final Set<String> POINT_FIELDS = Set.of("conc", "exp-name", "recipe-fingerprint");
  private static final Map<String, String> HISTORICAL_SELECTORS =
      Map.of("CONFIG_FILE", "srt-recipe", "EVAL_CONFIG_FILE", "eval-srt-recipe");

  private RecipeFingerprint() {}

  /**
   * The fingerprint of {@code row}.
   *
   * @throws InfxException kind {@code changelog} when a row carries two different historical
   *     selectors for the same field
   */
  public static String of(ObjectNode row) {
    return sha256(canonicalRecipe(row));
  }

  /**
   * The canonical JSON text that is hashed: the recipe identity of {@code row} (see class doc).
   * Two rows belong to the same curve iff their canonical recipes are equal.
   */
  public static String canonicalRecipe(ObjectNode row) {
    return PythonJson.dumpsCompactSorted(recipeIdentity(row));
  }

  /** The row without its point-level fields, with historical recipe selectors normalized. */
  public static ObjectNode recipeIdentity(ObjectNode row) {
    ObjectNode recipe = row.objectNode();
    row.fields().forEachRemaining(e -> {
      if (!POINT_FIELDS.contains(e.getKey())) {
        recipe.set(e.getKey(), e.getValue());
      }
    });
    for (String role : new String[] {"prefill", "decode"}) {
      JsonNode worker = recipe.get(role);
      if (!(worker instanceof ObjectNode w) || !truthy(w.get("additional-settings"))) {
        continue;
      }
      ArrayNode remaining = w.arrayNode();
      for (JsonNode setting : w.get("additional-settings")) {
        String text = setting.asText();
        int eq = text.indexOf('=');
        String name = eq < 0 ? text : text.substring(0, eq);
        String value = eq < 0 ? "" : text.substring(eq + 1);
        String field = HISTORICAL_SELECTORS.get(name);
        if (field == null) {
          remaining.add(setting);
          continue;
        }
        if (recipe.has(field) && !recipe.get(field).asText().equals(value)) {
          throw new InfxException(ErrorKind.CHANGELOG, "Conflicting historical " + field + " selectors");
        }
        recipe.put(field, value);
      }
      ObjectNode copy = w.deepCopy();
      copy.remove("additional-settings");
      if (!remaining.isEmpty()) {
        copy.set("additional-settings", remaining);
      }
      recipe.set(role, copy);
    }
    return recipe;
  }

  private static boolean truthy(JsonNode n) {
    return n != null && !n.isNull() && !(n.isContainerNode() && n.isEmpty())
        && !(n.isTextual() && n.textValue().isEmpty()) && !(n.isBoolean() && !n.booleanValue());
  }

  /** Lowercase hex SHA-256 of the UTF-8 bytes of {@code text}. */
  public static String sha256(String text) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
