package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxStyle;
import io.infx.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A serving component's identity (e.g. the router: {@code {"name": "vllm-router", "version":
 * "0.1.14"}}), published as the aggregate's {@code router} object. Both fields are non-empty.
 * {@link #keyOrder()} keeps the order in which the keys appeared in the source JSON, because the
 * reference copies the parsed object as is.
 */
@Value.Immutable
@InfxStyle
public abstract class ComponentMetadata {

  public abstract String name();

  public abstract String version();

  /** Output key order: {@code name} first unless the source JSON listed {@code version} first. */
  @Value.Default
  public boolean versionFirst() {
    return false;
  }

  @Value.Check
  protected void check() {
    if (name().isEmpty() || version().isEmpty()) {
      throw new ResultsException(ErrorKind.INVALID_COMPONENT_METADATA,
          "component metadata name and version must be non-empty strings");
    }
  }

  public static ComponentMetadata of(String name, String version) {
    return ImmutableComponentMetadata.builder().name(name).version(version).build();
  }

  /** The keys in output order. */
  public List<String> keyOrder() {
    return versionFirst() ? List.of("version", "name") : List.of("name", "version");
  }

  /** The JSON object published in the aggregate. */
  public ObjectNode toJson() {
    ObjectNode node = Json.mapper().createObjectNode();
    for (String key : keyOrder()) {
      node.put(key, key.equals("name") ? name() : version());
    }
    return node;
  }

  /**
   * Parses an optional component-metadata variable the way the reference does: undefined,
   * {@code ""} and {@code "null"} mean absent; anything else must be JSON for an object with exactly
   * the keys {@code name} and {@code version}, both non-empty strings.
   *
   * @param variable the variable name, used in error messages (e.g. {@code ROUTER_METADATA})
   * @param value the variable's value, or {@code null} when undefined
   * @throws ResultsException kind {@code invalid_component_metadata}
   */
  public static Optional<ComponentMetadata> parse(String variable, String value) {
    if (value == null || value.isEmpty() || value.equals("null")) {
      return Optional.empty();
    }
    JsonNode node;
    try {
      node = Json.mapper().readTree(value);
    } catch (Exception e) {
      throw new ResultsException(ErrorKind.INVALID_COMPONENT_METADATA,
          variable + " must contain valid JSON (" + firstLine(e.getMessage()) + ")", e);
    }
    if (node == null || !node.isObject()) {
      throw exactly(variable);
    }
    List<String> keys = new ArrayList<>();
    node.fieldNames().forEachRemaining(keys::add);
    if (keys.size() != 2 || !keys.contains("name") || !keys.contains("version")) {
      throw exactly(variable);
    }
    JsonNode name = node.get("name");
    JsonNode version = node.get("version");
    if (!name.isTextual() || name.textValue().isEmpty()
        || !version.isTextual() || version.textValue().isEmpty()) {
      throw new ResultsException(ErrorKind.INVALID_COMPONENT_METADATA,
          variable + " name and version must be non-empty strings");
    }
    return Optional.of(ImmutableComponentMetadata.builder()
        .name(name.textValue())
        .version(version.textValue())
        .versionFirst(keys.get(0).equals("version"))
        .build());
  }

  private static ResultsException exactly(String variable) {
    return new ResultsException(ErrorKind.INVALID_COMPONENT_METADATA,
        variable + " must contain exactly 'name' and 'version'");
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unparseable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
