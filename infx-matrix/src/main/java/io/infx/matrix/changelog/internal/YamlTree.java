package io.infx.matrix.changelog.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads a YAML 1.1 document (the dialect of the reference's PyYAML {@code safe_load}: {@code yes}/
 * {@code no} booleans, {@code 1_000} integers, {@code ~} nulls) into a Jackson tree whose object
 * key order is the document's, and remembers where every node starts so errors can name
 * {@code file:line:column}.
 *
 * <p>Values YAML types as timestamps or binary are kept as their source text in a
 * {@link Foreign} marker so that validators can reject them as "not a string" instead of
 * silently accepting a date.
 */
public final class YamlTree {

  /** Duplicate keys in one mapping: silently last-wins (PyYAML) or an error (hygiene loader). */
  public enum Duplicates { LAST_WINS, REJECT }

  /** A scalar of a YAML type JSON has no counterpart for (timestamp, binary, …). */
  public record Foreign(String tag, String text) {}

  private final JsonNode root;
  private final Map<String, Location> locations;

  private YamlTree(JsonNode root, Map<String, Location> locations) {
    this.root = root;
    this.locations = locations;
  }

  /** The document; a {@code NullNode} for an empty document. */
  public JsonNode root() {
    return root;
  }

  /**
   * Where the mapping key of the member at this pointer starts (for errors about the member
   * itself, such as unknown fields), else where its value starts.
   */
  public Optional<Location> keyLocationOf(String pointer) {
    Location key = locations.get(pointer + "#key");
    return key != null ? Optional.of(key) : locationOf(pointer);
  }

  /** Where the node at this RFC 6901 pointer starts, if it came from the text. */
  public Optional<Location> locationOf(String pointer) {
    return Optional.ofNullable(locations.get(pointer));
  }

  /**
   * Parses {@code text}.
   *
   * @param source the file name errors should show
   * @param lineOf maps a 1-based line of {@code text} to the line reported (for text cut out of
   *     a larger file); identity normally
   * @throws ValidationException kind {@code kind} when the text is not YAML, or holds duplicate
   *     keys under {@link Duplicates#REJECT}
   */
  public static YamlTree parse(String text, String source, java.util.function.IntUnaryOperator lineOf,
      Duplicates duplicates, ErrorKind kind) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(true);
    options.setMaxAliasesForCollections(50);
    options.setAllowRecursiveKeys(false);
    options.setCodePointLimit(64 * 1024 * 1024);
    Node node;
    StreamReader reader = new StreamReader(new StringReader(text));
    try {
      Composer composer = new Composer(new ParserImpl(reader, options), new Resolver(), options);
      node = composer.getSingleNode();
    } catch (MarkedYAMLException e) {
      Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      throw new ValidationException(kind, List.of(Violation.builder()
          .ruleId("yaml.syntax")
          .location(m == null ? Optional.empty() : Optional.of(loc(source, m, lineOf)))
          .message("not valid YAML: " + oneLine(e.getProblem() != null ? e.getProblem()
              : e.getMessage()))
          .build()));
    } catch (YAMLException e) {
      // a reader limit (aliases, size) carries no mark: report where reading stopped
      Mark m = reader.getMark();
      throw new ValidationException(kind, List.of(Violation.builder()
          .ruleId("yaml.syntax")
          .location(m == null ? Optional.empty() : Optional.of(loc(source, m, lineOf)))
          .message("not valid YAML: " + oneLine(e.getMessage())).build()));
    }
    Map<String, Location> locs = new HashMap<>();
    if (node == null) {
      return new YamlTree(JsonNodeFactory.instance.nullNode(), locs);
    }
    Builder b = new Builder(source, lineOf, duplicates, kind, locs, options);
    return new YamlTree(b.convert(node, ""), locs);
  }

  private static Location loc(String source, Mark m, java.util.function.IntUnaryOperator lineOf) {
    return new Location(source, lineOf.applyAsInt(m.getLine() + 1), m.getColumn() + 1);
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ').trim();
  }

  /** RFC 6901 escaping of one reference token. */
  public static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }

  private static final class Builder extends SafeConstructor {
    private final String source;
    private final java.util.function.IntUnaryOperator lineOf;
    private final Duplicates duplicates;
    private final ErrorKind kind;
    private final Map<String, Location> locs;

    Builder(String source, java.util.function.IntUnaryOperator lineOf, Duplicates duplicates, ErrorKind kind,
        Map<String, Location> locs, LoaderOptions options) {
      super(options);
      this.source = source;
      this.lineOf = lineOf;
      this.duplicates = duplicates;
      this.kind = kind;
      this.locs = locs;
    }

    JsonNode convert(Node node, String pointer) {
      locs.put(pointer, loc(source, node.getStartMark(), lineOf));
      JsonNodeFactory f = JsonNodeFactory.instance;
      if (node instanceof MappingNode map) {
        // SnakeYAML's merge handling also drops duplicate keys; only use it for `<<` merges so
        // duplicates keep Python's semantics (or are rejected) below.
        if (map.getValue().stream().anyMatch(t -> t.getKeyNode().getTag().equals(Tag.MERGE))) {
          flattenMapping(map);
        }
        ObjectNode obj = f.objectNode();
        for (NodeTuple t : map.getValue()) {
          Node keyNode = t.getKeyNode();
          Object key = keyNode instanceof ScalarNode ? constructObject(keyNode) : null;
          String k = key == null ? "null" : key.toString();
          if (key != null && !(key instanceof String)) {
            // PyYAML keeps non-string keys; JSON and our schemas only have string keys.
            k = String.valueOf(key);
          }
          if (obj.has(k) && duplicates == Duplicates.REJECT) {
            throw new ValidationException(kind, List.of(Violation.builder()
                .ruleId("yaml.duplicate-key")
                .location(loc(source, keyNode.getStartMark(), lineOf))
                .pointer(pointer)
                .message("duplicate mapping key '" + k + "'")
                .build()));
          }
          // Last value wins at the key's first position, as a Python dict update does.
          locs.put(pointer + "/" + escape(k) + "#key", loc(source, keyNode.getStartMark(), lineOf));
          obj.set(k, convert(t.getValueNode(), pointer + "/" + escape(k)));
        }
        return obj;
      }
      if (node instanceof SequenceNode seq) {
        ArrayNode arr = f.arrayNode();
        int i = 0;
        for (Node item : seq.getValue()) {
          arr.add(convert(item, pointer + "/" + i++));
        }
        return arr;
      }
      Object value;
      try {
        value = constructObject(node);
      } catch (YAMLException e) {
        throw new InfxException(kind, loc(source, node.getStartMark(), lineOf)
            + ": [yaml.scalar] " + oneLine(e.getMessage()));
      }
      if (value == null) {
        return f.nullNode();
      }
      if (value instanceof String s) {
        return f.textNode(s);
      }
      if (value instanceof Boolean bo) {
        return f.booleanNode(bo);
      }
      if (value instanceof Integer n) {
        return f.numberNode(n);
      }
      if (value instanceof Long n) {
        return f.numberNode(n);
      }
      if (value instanceof BigInteger n) {
        return f.numberNode(n);
      }
      if (value instanceof Double d) {
        return f.numberNode(d);
      }
      String text = node instanceof ScalarNode sc ? sc.getValue() : String.valueOf(value);
      return f.pojoNode(new Foreign(node.getTag().getValue(), text));
    }
  }
}
