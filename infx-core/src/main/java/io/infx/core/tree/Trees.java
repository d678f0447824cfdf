package io.infx.core.tree;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.infx.core.ErrorKind;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Readers that turn YAML or JSON text into located {@link Node} trees.
 *
 * <p>YAML is read with YAML 1.1 typing (as PyYAML's safe loader, which the reference uses), merge
 * keys ({@code <<}) applied, and these protections: duplicate keys in one mapping are an error
 * (stricter than PyYAML, which silently keeps the last), aliases are counted at every use against
 * {@link TreeLimits#maxNodes()} (alias bombs fail fast), and size and depth are bounded. Every
 * problem found is reported at once as a {@link ValidationException} of kind {@code input} whose
 * violations carry {@code file:line:column}.
 */
public final class Trees {

  private static final Tag PLAIN = new Tag("tag:infx.io,2026:plain");

  private Trees() {}

  /** Parses YAML text; {@code label} names the source in locations. */
  public static Node parseYaml(String label, String text) {
    return readYaml(Source.text(label, text), TreeLimits.DEFAULT);
  }

  /** Reads and parses a YAML source with the default limits. */
  public static Node readYaml(Source source) {
    return readYaml(source, TreeLimits.DEFAULT);
  }

  /**
   * Reads and parses a YAML source. An empty document is a null scalar at 1:1.
   *
   * @throws io.infx.core.InfxException kind {@code file} when a file is missing or unreadable
   * @throws ValidationException kind {@code input} for syntax errors, duplicate keys, unsupported
   *     tags and exceeded limits
   */
  public static Node readYaml(Source source, TreeLimits limits) {
    String text = source.read(limits);
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(true); // reported by us, with both locations
    options.setMaxAliasesForCollections(limits.maxAliases());
    options.setNestingDepthLimit(limits.maxDepth());
    options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxBytes()));
    options.setMergeOnCompose(true);
    options.setProcessComments(false);
    org.yaml.snakeyaml.nodes.Node root;
    try {
      Composer composer = new Composer(
          new ParserImpl(new StreamReader(new StringReader(text)), options), new PlainResolver(), options);
      root = composer.getSingleNode();
    } catch (MarkedYAMLException e) {
      throw inputError(yamlViolation(source.label(), e));
    } catch (YAMLException e) {
      throw inputError(Violation.builder()
          .ruleId("yaml.limit")
          .location(new Location(source.label(), 1, 1))
          .message("'" + source.label() + "' cannot be read safely: " + e.getMessage())
          .build());
    } catch (StackOverflowError e) {
      throw inputError(Violation.builder()
          .ruleId("yaml.limit")
          .location(new Location(source.label(), 1, 1))
          .message("'" + source.label() + "' is nested too deeply")
          .build());
    }
    if (root == null) {
      return new ScalarNode("", new Location(source.label(), 1, 1), ScalarKind.NULL, "", null);
    }
    YamlConverter converter = new YamlConverter(source.label(), limits);
    Node out;
    try {
      out = converter.convert(root, "", 0);
    } catch (Budget e) {
      throw new ValidationException(ErrorKind.INPUT, converter.violations);
    }
    if (!converter.violations.isEmpty()) {
      throw new ValidationException(ErrorKind.INPUT, converter.violations);
    }
    return out;
  }

  /** Reads and parses a JSON source with the default limits. */
  public static Node readJson(Source source) {
    return readJson(source, TreeLimits.DEFAULT);
  }

  /**
   * Reads and parses a JSON document (duplicate keys rejected, numbers kept exact).
   *
   * @throws ValidationException kind {@code input} for syntax errors and duplicate keys
   */
  public static Node readJson(Source source, TreeLimits limits) {
    String text = source.read(limits);
    JsonConverter c = new JsonConverter(source.label(), limits);
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() == null) {
        return new ScalarNode("", new Location(source.label(), 1, 1), ScalarKind.NULL, "", null);
      }
      Node out = c.value(p, "", 0);
      if (p.nextToken() != null) {
        throw inputError(Violation.builder()
            .ruleId("json.syntax")
            .location(c.loc(p.currentTokenLocation()))
            .message("unexpected content after the JSON document")
            .build());
      }
      if (!c.violations.isEmpty()) {
        throw new ValidationException(ErrorKind.INPUT, c.violations);
      }
      return out;
    } catch (JsonParseException e) {
      throw inputError(Violation.builder()
          .ruleId("json.syntax")
          .location(c.loc(e.getLocation()))
          .message(e.getOriginalMessage())
          .build());
    } catch (IOException e) {
      throw inputError(Violation.builder()
          .ruleId("json.syntax")
          .location(new Location(source.label(), 1, 1))
          .message(String.valueOf(e.getMessage()))
          .build());
    }
  }

  private static final JsonFactory JSON = JsonFactory.builder().build();

  private static ValidationException inputError(Violation v) {
    return new ValidationException(ErrorKind.INPUT, List.of(v));
  }

  private static Violation yamlViolation(String label, MarkedYAMLException e) {
    Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    Location where = mark == null
        ? new Location(label, 1, 1)
        : new Location(label, mark.getLine() + 1, mark.getColumn() + 1);
    StringBuilder msg = new StringBuilder("invalid YAML: ");
    if (e.getContext() != null) {
      msg.append(e.getContext()).append(", ");
    }
    msg.append(e.getProblem() == null ? "syntax error" : e.getProblem());
    return Violation.builder().ruleId("yaml.syntax").location(where).message(msg.toString()).build();
  }

  /** Tags every untagged plain scalar, so YAML 1.1 typing happens here and is PyYAML's. */
  private static final class PlainResolver extends Resolver {
    @Override
    protected void addImplicitResolvers() {
      // none: we resolve plain scalars ourselves
    }

    @Override
    public Tag resolve(org.yaml.snakeyaml.nodes.NodeId kind, String value, boolean implicit) {
      if (kind == org.yaml.snakeyaml.nodes.NodeId.scalar) {
        if (implicit) {
          return "<<".equals(value) ? Tag.MERGE : PLAIN;
        }
        return Tag.STR;
      }
      return super.resolve(kind, value, implicit);
    }
  }

  private static final class YamlConverter {
    private final String label;
    private final TreeLimits limits;
    private final List<Violation> violations = new ArrayList<>();
    private int nodes;
    private boolean overBudget;

    YamlConverter(String label, TreeLimits limits) {
      this.label = label;
      this.limits = limits;
    }

    Location loc(org.yaml.snakeyaml.nodes.Node n) {
      Mark m = n.getStartMark();
      return m == null ? new Location(label, 1, 1) : new Location(label, m.getLine() + 1, m.getColumn() + 1);
    }

    Node convert(org.yaml.snakeyaml.nodes.Node n, String pointer, int depth) {
      if (++nodes > limits.maxNodes() || depth > limits.maxDepth()) {
        if (!overBudget) {
          overBudget = true;
          violations.add(Violation.builder()
              .ruleId("yaml.limit")
              .location(loc(n))
              .pointer(pointer)
              .message(depth > limits.maxDepth()
                  ? "document nests deeper than " + limits.maxDepth() + " levels"
                  : "document expands to more than " + limits.maxNodes()
                      + " values (an alias bomb?); refusing to read it")
              .build());
        }
        throw new Budget();
      }
      if (n instanceof org.yaml.snakeyaml.nodes.ScalarNode s) {
        return scalar(s, pointer);
      }
      if (n instanceof SequenceNode seq) {
        List<Node> items = new ArrayList<>(seq.getValue().size());
        int i = 0;
        for (org.yaml.snakeyaml.nodes.Node item : seq.getValue()) {
          items.add(convert(item, Pointers.child(pointer, i++), depth + 1));
        }
        return new ListNode(pointer, loc(n), items);
      }
      MappingNode map = (MappingNode) n;
      List<MapNode.Entry> entries = new ArrayList<>(map.getValue().size());
      Map<String, ScalarNode> seen = new HashMap<>();
      for (NodeTuple t : map.getValue()) {
        if (!(t.getKeyNode() instanceof org.yaml.snakeyaml.nodes.ScalarNode keyNode)) {
          violations.add(Violation.builder()
              .ruleId("yaml.complex-key")
              .location(loc(t.getKeyNode()))
              .pointer(pointer)
              .message("mapping keys must be plain values, not lists or mappings")
              .build());
          continue;
        }
        ScalarNode key = scalar(keyNode, pointer);
        String name = key.kind() == ScalarKind.NULL ? "null" : String.valueOf(key.toPlain());
        ScalarNode first = seen.putIfAbsent(name, key);
        if (first != null) {
          violations.add(Violation.builder()
              .ruleId("yaml.duplicate-key")
              .location(key.location())
              .pointer(Pointers.child(pointer, name))
              .message("duplicate key '" + name + "' (first defined at line " + first.location().line()
                  + "); YAML keeps only one of them, so remove or rename the other")
              .build());
          continue;
        }
        String child = Pointers.child(pointer, name);
        entries.add(new MapNode.Entry(name, new ScalarNode(child, key.location(), key.kind(), key.text(),
            key.value()), convert(t.getValueNode(), child, depth + 1)));
      }
      return new MapNode(pointer, loc(n), entries);
    }

    ScalarNode scalar(org.yaml.snakeyaml.nodes.ScalarNode s, String pointer) {
      String text = s.getValue();
      Tag tag = s.getTag();
      Location where = loc(s);
      if (PLAIN.equals(tag)) {
        Object[] kv = Yaml11.resolvePlain(text);
        return new ScalarNode(pointer, where, (ScalarKind) kv[0], text, kv[1]);
      }
      if (Tag.STR.equals(tag)) {
        return new ScalarNode(pointer, where, ScalarKind.STRING, text, text);
      }
      Object[] kv = text.isEmpty() && Tag.NULL.equals(tag)
          ? new Object[] {ScalarKind.NULL, null}
          : Yaml11.resolvePlain(text);
      ScalarKind want = Tag.INT.equals(tag) ? ScalarKind.INTEGER
          : Tag.FLOAT.equals(tag) ? ScalarKind.FLOAT
          : Tag.BOOL.equals(tag) ? ScalarKind.BOOLEAN
          : Tag.NULL.equals(tag) ? ScalarKind.NULL
          : null;
      if (want == null || kv[0] != want) {
        violations.add(Violation.builder()
            .ruleId("yaml.tag")
            .location(where)
            .pointer(pointer)
            .message(want == null
                ? "unsupported YAML tag " + tag.getValue() + " (only plain values, lists and mappings are read)"
                : "'" + text + "' is not a valid " + tag.getValue())
            .build());
        return new ScalarNode(pointer, where, ScalarKind.STRING, text, text);
      }
      return new ScalarNode(pointer, where, want, text, kv[1]);
    }
  }

  /** Thrown to stop a conversion that exceeded its budget; the violation is already recorded. */
  private static final class Budget extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Budget() {
      super(null, null, false, false);
    }
  }

  private static final class JsonConverter {
    private final String label;
    private final TreeLimits limits;
    private final List<Violation> violations = new ArrayList<>();
    private int nodes;

    JsonConverter(String label, TreeLimits limits) {
      this.label = label;
      this.limits = limits;
    }

    Location loc(JsonLocation l) {
      if (l == null || l.getLineNr() < 1) {
        return new Location(label, 1, 1);
      }
      return new Location(label, l.getLineNr(), Math.max(1, l.getColumnNr()));
    }

    Node value(JsonParser p, String pointer, int depth) throws IOException {
      if (++nodes > limits.maxNodes() || depth > limits.maxDepth()) {
        throw inputError(Violation.builder()
            .ruleId("json.limit")
            .location(loc(p.currentTokenLocation()))
            .pointer(pointer)
            .message("document is larger or deeper than allowed")
            .build());
      }
      Location where = loc(p.currentTokenLocation());
      JsonToken t = p.currentToken();
      switch (t) {
        case START_OBJECT -> {
          List<MapNode.Entry> entries = new ArrayList<>();
          Map<String, Location> seen = new HashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            Location keyAt = loc(p.currentTokenLocation());
            p.nextToken();
            String child = Pointers.child(pointer, name);
            Node v = value(p, child, depth + 1);
            Location first = seen.putIfAbsent(name, keyAt);
            if (first != null) {
              violations.add(Violation.builder()
                  .ruleId("json.duplicate-key")
                  .location(keyAt)
                  .pointer(child)
                  .message("duplicate key '" + name + "' (first defined at line " + first.line() + ")")
                  .build());
              continue;
            }
            entries.add(new MapNode.Entry(name,
                new ScalarNode(child, keyAt, ScalarKind.STRING, name, name), v));
          }
          return new MapNode(pointer, where, entries);
        }
        case START_ARRAY -> {
          List<Node> items = new ArrayList<>();
          int i = 0;
          while (p.nextToken() != JsonToken.END_ARRAY) {
            items.add(value(p, Pointers.child(pointer, i++), depth + 1));
          }
          return new ListNode(pointer, where, items);
        }
        case VALUE_STRING -> {
          return new ScalarNode(pointer, where, ScalarKind.STRING, p.getText(), p.getText());
        }
        case VALUE_NUMBER_INT -> {
          BigInteger v = p.getBigIntegerValue();
          return new ScalarNode(pointer, where, ScalarKind.INTEGER, p.getText(), v);
        }
        case VALUE_NUMBER_FLOAT -> {
          BigDecimal v = p.getDecimalValue();
          return new ScalarNode(pointer, where, ScalarKind.FLOAT, p.getText(), v);
        }
        case VALUE_TRUE, VALUE_FALSE -> {
          return new ScalarNode(pointer, where, ScalarKind.BOOLEAN, p.getText(), t == JsonToken.VALUE_TRUE);
        }
        case VALUE_NULL -> {
          return new ScalarNode(pointer, where, ScalarKind.NULL, "null", null);
        }
        default -> throw inputError(Violation.builder()
            .ruleId("json.syntax")
            .location(where)
            .message("unexpected " + t)
            .build());
      }
    }
  }
}
