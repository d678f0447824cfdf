package io.infx.matrix.changelog;

import io.infx.core.ErrorKind;
import io.infx.matrix.ScenarioType;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.changelog.internal.YamlTree;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Parses and validates changelog entries (spec §2.11 V62–V64, reference {@code ChangelogEntry}).
 *
 * <p>infx is strict where the reference's pydantic model is lax: booleans must be YAML booleans
 * ({@code true}/{@code false}, or YAML 1.1's {@code yes}/{@code no}), integers must be integers,
 * strings must be strings. The real changelog only uses canonical types, so nothing real is
 * rejected. Every violation of every entry is reported at once, each with its file location.
 */
public final class ChangelogEntries {

  /** The fields an entry may have, in schema order. */
  public static final List<String> FIELDS = List.of("config-keys", "description", "pr-link",
      "evals-only", "all-evals", "no-evals", "append-only", "eval-min-prefill-ep", "scenario-type");

  static final ErrorKind KIND = ErrorKind.CHANGELOG;

  private ChangelogEntries() {}

  /**
   * Parses the YAML text of appended changelog lines (or a whole changelog) into entries.
   *
   * @param yaml the YAML text (a list of entries)
   * @param source the file name errors should show
   * @param lineOf maps a 1-based line of {@code yaml} to the line of the file it came from
   *     (identity for a whole file)
   * @param allowRetired accept seed 003's {@code retired} field (off in the reference)
   * @throws ValidationException kind {@code changelog} naming every broken rule with its location
   */
  public static List<ChangelogEntry> parse(String yaml, String source,
      java.util.function.IntUnaryOperator lineOf, boolean allowRetired) {
    // a key repeated in an appended entry is refused (issue 11): last-wins hid typos silently
    YamlTree tree = YamlTree.parse(yaml, source, lineOf, YamlTree.Duplicates.REJECT, KIND);
    return fromTree(tree, source, lineOf, allowRetired);
  }

  /** Validates an already parsed YAML document holding a list of entries. */
  static List<ChangelogEntry> fromTree(YamlTree tree, String source,
      java.util.function.IntUnaryOperator lineOf, boolean allowRetired) {
    JsonNode root = tree.root();
    if (root.isNull() || (root.isContainerNode() && root.isEmpty())
        || (root.isTextual() && root.textValue().isEmpty())) {
      throw new InfxException(KIND,
          source + ": [changelog.no-entries] No valid YAML entries found in the changelog additions.");
    }
    Checker c = new Checker(tree, source, lineOf);
    if (!root.isArray()) {
      c.add("changelog.root", "", "the changelog must be a YAML list of entries", "a list",
          typeName(root));
      throw c.failure();
    }
    List<ChangelogEntry> entries = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      entries.add(c.entry(root.get(i), "/" + i, allowRetired));
    }
    if (!c.violations.isEmpty()) {
      throw c.failure();
    }
    return entries;
  }

  static String typeName(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    if (n.isPojo() && n instanceof com.fasterxml.jackson.databind.node.POJONode p
        && p.getPojo() instanceof YamlTree.Foreign f) {
      return "a " + f.tag().replace("tag:yaml.org,2002:", "") + " (" + f.text() + ")";
    }
    return switch (n.getNodeType()) {
      case ARRAY -> "a list";
      case OBJECT -> "a mapping";
      case STRING -> "a string (" + n.textValue() + ")";
      case BOOLEAN -> "a boolean (" + n.booleanValue() + ")";
      case NULL -> "null";
      case NUMBER -> (n.isIntegralNumber() ? "an integer (" : "a float (") + n + ")";
      default -> n.getNodeType().toString().toLowerCase();
    };
  }

  private static final class Checker {
    final YamlTree tree;
    final String source;
    final java.util.function.IntUnaryOperator lineOf;
    final List<Violation> violations = new ArrayList<>();

    Checker(YamlTree tree, String source, java.util.function.IntUnaryOperator lineOf) {
      this.tree = tree;
      this.source = source;
      this.lineOf = lineOf;
    }

    ValidationException failure() {
      return new ValidationException(KIND, violations);
    }

    void add(String rule, String pointer, String message, String expected, String actual) {
      io.infx.core.ImmutableViolation.Builder b =
          Violation.builder().ruleId(rule).pointer(pointer).message(message);
      (rule.endsWith("extra-field") ? tree.keyLocationOf(pointer) : tree.locationOf(pointer))
          .ifPresent(b::location);
      if (expected != null) {
        b.expected(expected);
      }
      if (actual != null) {
        b.actual(actual);
      }
      violations.add(b.build());
    }

    ChangelogEntry entry(JsonNode n, String p, boolean allowRetired) {
      int before = violations.size();
      if (!n.isObject()) {
        add("changelog.entry.type", p, "a changelog entry must be a mapping", "a mapping",
            typeName(n));
        return null;
      }
      Set<String> allowed = new java.util.LinkedHashSet<>(FIELDS);
      if (allowRetired) {
        allowed.add("retired");
      }
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        if (!allowed.contains(k)) {
          String hint = k.equals("retired")
              ? " ('retired' entries need the planner's --allow-retired option)"
              : " (allowed fields: " + String.join(", ", allowed) + ")";
          add("changelog.entry.extra-field", p + "/" + YamlTree.escape(k),
              k + ": Extra inputs are not permitted" + hint, null, null);
        }
      }
      List<String> keys = stringList(n, p, "config-keys", true);
      List<String> description = stringList(n, p, "description", true);
      String prLink = null;
      JsonNode link = n.get("pr-link");
      if (link == null) {
        add("changelog.entry.required", p, "pr-link: Field required", null, null);
      } else if (!link.isTextual()) {
        add("changelog.entry.type", p + "/pr-link", "pr-link must be a string", "a string",
            typeName(link));
      } else {
        prLink = link.textValue();
      }
      boolean evalsOnly = bool(n, p, "evals-only");
      boolean allEvals = bool(n, p, "all-evals");
      boolean noEvals = bool(n, p, "no-evals");
      boolean appendOnly = bool(n, p, "append-only");
      boolean retired = allowRetired && bool(n, p, "retired");
      OptionalInt minEp = OptionalInt.empty();
      JsonNode ep = n.get("eval-min-prefill-ep");
      if (ep != null && !ep.isNull()) {
        if (!ep.isIntegralNumber() || !ep.canConvertToInt()) {
          add("changelog.entry.type", p + "/eval-min-prefill-ep",
              "eval-min-prefill-ep must be an integer", "an integer >= 1", typeName(ep));
        } else if (ep.intValue() < 1) {
          add("changelog.entry.eval-min-prefill-ep", p + "/eval-min-prefill-ep",
              "eval-min-prefill-ep must be greater than or equal to 1", ">= 1",
              Integer.toString(ep.intValue()));
        } else {
          minEp = OptionalInt.of(ep.intValue());
        }
      }
      Optional<List<ScenarioType>> scenarios = Optional.empty();
      JsonNode st = n.get("scenario-type");
      if (st != null && !st.isNull()) {
        String sp = p + "/scenario-type";
        if (!st.isArray()) {
          add("changelog.entry.type", sp, "scenario-type must be a list", "a list of "
              + "fixed-seq-len / agentic-coding", typeName(st));
        } else if (st.isEmpty()) {
          add("changelog.entry.min-items", sp, "scenario-type must list at least one scenario",
              "at least 1 item", "0 items");
        } else {
          List<ScenarioType> types = new ArrayList<>();
          for (int i = 0; i < st.size(); i++) {
            JsonNode item = st.get(i);
            Optional<ScenarioType> t = item.isTextual()
                ? ScenarioType.fromWire(item.textValue()) : Optional.empty();
            if (t.isEmpty()) {
              add("changelog.entry.scenario-type", sp + "/" + i,
                  "scenario-type items must be 'fixed-seq-len' or 'agentic-coding'",
                  "'fixed-seq-len' or 'agentic-coding'", typeName(item));
            } else {
              types.add(t.get());
            }
          }
          scenarios = Optional.of(types);
        }
      }
      if (noEvals && (evalsOnly || allEvals || minEp.isPresent())) {
        add("changelog.no-evals.eval-fields", p,
            "no-evals cannot be combined with eval selection fields", null, null);
      }
      if (appendOnly && (evalsOnly || allEvals || minEp.isPresent())) {
        add("changelog.append-only.eval-fields", p,
            "append-only cannot be combined with eval selection fields", null, null);
      }
      if (retired && (evalsOnly || allEvals || noEvals || appendOnly || minEp.isPresent()
          || scenarios.isPresent())) {
        add("changelog.retired.fields", p, "retired entries only name configs removed from the "
            + "catalogue; they cannot carry evals-only, all-evals, no-evals, append-only, "
            + "eval-min-prefill-ep or scenario-type", null, null);
      }
      if (violations.size() > before) {
        return null;
      }
      return new ChangelogEntry(keys, description, prLink, evalsOnly, allEvals, noEvals,
          appendOnly, minEp, scenarios, retired);
    }

    private boolean bool(JsonNode entry, String p, String field) {
      JsonNode v = entry.get(field);
      if (v == null) {
        return false;
      }
      if (!v.isBoolean()) {
        add("changelog.entry.type", p + "/" + field, field + " must be a boolean",
            "true or false", typeName(v));
        return false;
      }
      return v.booleanValue();
    }

    private List<String> stringList(JsonNode entry, String p, String field, boolean required) {
      JsonNode v = entry.get(field);
      String fp = p + "/" + field;
      if (v == null) {
        if (required) {
          add("changelog.entry.required", p, field + ": Field required", null, null);
        }
        return List.of();
      }
      if (!v.isArray()) {
        add("changelog.entry.type", fp, field + " must be a list of strings", "a list of strings",
            typeName(v));
        return List.of();
      }
      if (v.isEmpty()) {
        add("changelog.entry.min-items", fp, field + " must have at least 1 item",
            "at least 1 item", "0 items");
        return List.of();
      }
      List<String> out = new ArrayList<>();
      for (int i = 0; i < v.size(); i++) {
        JsonNode item = v.get(i);
        if (!item.isTextual()) {
          add("changelog.entry.type", fp + "/" + i, field + " items must be strings", "a string",
              typeName(item));
        } else {
          out.add(item.textValue());
        }
      }
      return out;
    }
  }
}
