package io.infx.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.Violation;
import io.infx.core.json.Json;
import io.infx.fleet.internal.JsonLocations;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One matrix row as the generator prints it: an ordered JSON object with kebab-case keys
 * ({@code exp-name}, {@code tp}, {@code prefill}, …). The fleet module reads rows in this untyped
 * form on purpose, so it accepts exactly what {@code infx generate} prints and what {@code --row
 * ROW.json} holds, and forwards keys it does not know.
 *
 * <p>The shape follows the reference's rule (matrix spec §5.6): a row with a {@code prefill} key is
 * a multi-node row, any other row is single-node; a row whose {@code scenario-type} is
 * {@code agentic-coding} is an AgentX (agentic) row.
 */
public final class MatrixRow {

  /** Single-node rows run {@code benchmark-tmpl.yml}, multi-node rows the multi-node template. */
  public enum Shape {
    SINGLE_NODE,
    MULTI_NODE
  }

  private final ObjectNode node;
  private final JsonLocations locations;

  private MatrixRow(ObjectNode node, JsonLocations locations) {
    this.node = node;
    this.locations = locations;
  }

  /** Wraps a row object (copied, so later changes to {@code row} have no effect). */
  public static MatrixRow of(ObjectNode row) {
    return new MatrixRow(Objects.requireNonNull(row, "row").deepCopy(), JsonLocations.none("<row>"));
  }

  /** The launcher's view of a row {@code infx-matrix} expanded ({@code Generator}, {@code Sweep}). */
  public static MatrixRow of(io.infx.matrix.MatrixRow row) {
    ObjectNode node = Json.mapper().valueToTree(Objects.requireNonNull(row, "row").fields());
    return new MatrixRow(node, JsonLocations.none("<row " + row.expName() + ">"));
  }

  /**
   * Parses one row object from JSON text.
   *
   * @param source the name to use in error messages (a file name, or e.g. {@code <stdin>})
   * @throws InfxException kind {@code row} when the text is not one JSON object
   */
  public static MatrixRow parse(String json, String source) {
    JsonNode tree;
    try {
      tree = Json.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      String where = loc == null || loc.getLineNr() < 1
          ? source
          : new Location(source, loc.getLineNr(), Math.max(1, loc.getColumnNr())).toString();
      throw new InfxException("row", where + ": [fleet.row.json] not valid JSON: "
          + e.getOriginalMessage());
    }
    if (tree == null || tree.isMissingNode()) {
      throw new InfxException("row", source + ": [fleet.row.json] empty input, expected one matrix row object");
    }
    if (tree.isArray()) {
      throw new InfxException("row", source + ": [fleet.row.shape] holds a JSON array of "
          + tree.size() + " rows; pass exactly one row object (e.g. `jq '.[0]' " + source + "`)");
    }
    if (!tree.isObject()) {
      throw new InfxException("row", source + ": [fleet.row.shape] expected one matrix row object, found "
          + tree.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
    }
    return new MatrixRow((ObjectNode) tree, JsonLocations.index(source, json));
  }

  /** Reads one row object from a file ({@code -} reads standard input). */
  public static MatrixRow read(Path file) {
    String text;
    try {
      if (file.toString().equals("-")) {
        try (InputStream in = System.in) {
          return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "<stdin>");
        }
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InfxException("file", file + ": no such file");
    } catch (IOException e) {
      throw new InfxException("file", file + ": cannot read: " + e.getMessage(), e);
    }
    return parse(text, file.toString());
  }

  /** A copy of the row object, keys in the row's order. */
  public ObjectNode json() {
    return node.deepCopy();
  }

  /** Single- or multi-node, by the presence of {@code prefill}. */
  public Shape shape() {
    return node.has("prefill") ? Shape.MULTI_NODE : Shape.SINGLE_NODE;
  }

  /** True for AgentX rows ({@code scenario-type: agentic-coding}). */
  public boolean isAgentic() {
    JsonNode st = node.get("scenario-type");
    return st != null && "agentic-coding".equals(st.asText());
  }

  /** The row's {@code eval-only} flag ({@code false} when absent). */
  public boolean isEvalOnly() {
    return flag("eval-only");
  }

  /** The row's {@code run-eval} flag ({@code false} when absent). */
  public boolean runsEval() {
    return flag("run-eval");
  }

  /** The scheduling label the row names ({@code runner}), e.g. {@code h200} or {@code cluster:b200-nb}. */
  public Optional<String> runnerLabel() {
    JsonNode r = node.get("runner");
    return r == null || r.isNull() ? Optional.empty() : Optional.of(r.asText());
  }

  /** The raw value at a key, if present and not {@code null}. */
  public Optional<JsonNode> get(String key) {
    JsonNode v = node.get(key);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
  }

  /** Where the value at a JSON pointer is in the source file (nearest existing parent for absent keys). */
  public Optional<Location> locate(String pointer) {
    return locations.locate(pointer);
  }

  /** A violation about the value at {@code pointer}, located in the source file when known. */
  Violation violation(String ruleId, String pointer, String message) {
    var b = Violation.builder().ruleId(ruleId).pointer(pointer).message(message);
    locate(pointer).ifPresent(b::location);
    return b.build();
  }

  ObjectNode node() {
    return node;
  }

  private boolean flag(String key) {
    JsonNode v = node.get(key);
    return v != null && (v.isBoolean() ? v.booleanValue() : "true".equalsIgnoreCase(v.asText()));
  }

  @Override
  public String toString() {
    return node.toString();
  }
}
