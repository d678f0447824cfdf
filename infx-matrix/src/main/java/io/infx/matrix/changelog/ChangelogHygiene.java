package io.infx.matrix.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.changelog.internal.RawMasters;
import io.infx.matrix.changelog.internal.YamlTree;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * File-hygiene checks of {@code perf-changelog.yaml} (spec §2.12, V73–V76; reference
 * {@code validate_perf_changelog}), used by merge and recovery tooling: the file's byte-level
 * invariants, immutability of history (only canonical pr-link corrections), the pr-link of new
 * entries, and the byte layout of an append.
 *
 * <p>Every check throws an {@link InfxException} of kind {@code changelog} whose rule id starts
 * with {@code changelog.hygiene.}.
 */
public final class ChangelogHygiene {

  /** The repository whose pull-request URLs are canonical. */
  private final String repository;
  private final Pattern canonical;

  private ChangelogHygiene(String repository) {
    this.repository = Objects.requireNonNull(repository, "repository");
    this.canonical = Pattern.compile("https://github\\.com/" + Pattern.quote(repository)
        + "/pull/\\d+");
  }

  /** Checks for the reference repository, {@code SemiAnalysisAI/InferenceX}. */
  public static ChangelogHygiene reference() {
    return forRepository("SemiAnalysisAI/InferenceX");
  }

  /** Checks whose canonical links are {@code https://github.com/<owner/name>/pull/<n>}. */
  public static ChangelogHygiene forRepository(String ownerAndName) {
    return new ChangelogHygiene(ownerAndName);
  }

  /**
   * What changed between two valid changelogs.
   *
   * @param additions the raw entries appended at the end
   * @param corrections how many existing entries had only their pr-link corrected
   */
  public record Change(List<JsonNode> additions, int corrections) {
    public Change {
      additions = List.copyOf(additions);
    }
  }

  private static InfxException fail(String rule, String message) {
    return new ValidationException(ChangelogEntries.KIND,
        List.of(Violation.of("changelog.hygiene." + rule, message)));
  }

  /**
   * V73: ends with {@code \n}; no CR, TAB or NUL; UTF-8; a YAML list without duplicate keys;
   * one {@code - config-keys:} line per entry; every entry a mapping and a valid changelog entry.
   *
   * @return the entries as parsed YAML mappings
   */
  public List<JsonNode> checkFile(byte[] raw, String label) {
    if (raw.length == 0 || raw[raw.length - 1] != '\n') {
      throw fail("final-newline", label + " does not end with a newline");
    }
    for (byte b : raw) {
      if (b == '\r') {
        throw fail("cr", label + " contains CR characters");
      }
      if (b == '\t') {
        throw fail("tab", label + " contains tabs");
      }
      if (b == 0) {
        throw fail("nul", label + " contains NUL bytes");
      }
    }
    String text;
    try {
      text = io.infx.core.io.TextFiles.decodeUtf8(raw, label);
    } catch (io.infx.core.InfxException e) {
      // located ("file:line:col: not UTF-8 text (byte 0xE9 …)"), not the JDK's "Input length = 1"
      throw fail("utf8", e.getMessage());
    }
    JsonNode root = YamlTree.parse(text, label, l -> l, YamlTree.Duplicates.REJECT,
        ChangelogEntries.KIND).root();
    if (!root.isArray()) {
      throw fail("root", label + " root must be a YAML list");
    }
    long starts = text.lines().filter(l -> l.startsWith("- config-keys:")).count();
    if (starts != root.size()) {
      throw fail("entry-count", label + " has " + starts + " top-level config entries but YAML "
          + "parsed " + root.size() + " entries");
    }
    List<JsonNode> entries = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      if (!root.get(i).isObject()) {
        throw fail("entry", label + " entry " + (i + 1) + " is not a mapping");
      }
      entries.add(root.get(i));
    }
    try {
      ChangelogEntries.parse(text, label, l -> l, false);
    } catch (InfxException e) {
      throw fail("entry", label + " fails ChangelogEntry validation:\n" + e.getMessage());
    }
    return entries;
  }

  /**
   * V74–V75: history is immutable except canonical pr-link-only corrections, which may not be
   * mixed with new entries; new entries carry an acceptable pr-link.
   *
   * @param prNumber the pull request being checked, or empty on the main branch
   */
  public Change compareEntries(List<JsonNode> base, List<JsonNode> head, OptionalInt prNumber) {
    if (head.size() < base.size()) {
      throw fail("deleted", "perf-changelog.yaml entries were deleted");
    }
    int corrections = 0;
    for (int i = 0; i < base.size(); i++) {
      JsonNode b = base.get(i);
      JsonNode h = head.get(i);
      if (RawMasters.same(b, h)) {
        continue;
      }
      if (!RawMasters.same(withoutLink(b), withoutLink(h))) {
        throw fail("immutable", "entry " + (i + 1) + " changed; existing entries are immutable "
            + "except for pr-link-only corrections");
      }
      String oldLink = link(b);
      String newLink = link(h);
      if (oldLink.equals(newLink)) {
        throw fail("reformatted", "entry " + (i + 1)
            + " was reformatted without a semantic change");
      }
      if (!canonical.matcher(newLink).matches()) {
        throw fail("correction-link", "entry " + (i + 1) + " pr-link correction is not canonical: '"
            + newLink + "'");
      }
      corrections++;
    }
    List<JsonNode> additions = head.subList(base.size(), head.size());
    if (corrections > 0 && !additions.isEmpty()) {
      throw fail("mixed", "do not mix historical pr-link corrections with new changelog entries");
    }
    for (JsonNode e : additions) {
      checkAddedPrLink(link(e), prNumber);
    }
    return new Change(additions, corrections);
  }

  /** V75: on main a canonical URL; on a PR {@code XXX}, the URL with {@code XXX}, or its own URL. */
  public void checkAddedPrLink(String link, OptionalInt prNumber) {
    if (prNumber.isEmpty()) {
      if (!canonical.matcher(link).matches()) {
        throw fail("pr-link", "new main-branch entry has invalid pr-link: '" + link + "'");
      }
      return;
    }
    String expected = "https://github.com/" + repository + "/pull/" + prNumber.getAsInt();
    if (!link.equals("XXX") && !link.equals("https://github.com/" + repository + "/pull/XXX")
        && !link.equals(expected)) {
      throw fail("pr-link", "new PR entry must use '" + expected + "' or an XXX placeholder; "
          + "found '" + link + "'");
    }
  }

  private static final Pattern ENTRY_START =
      Pattern.compile("(?m)^- config-keys:[^\\r\\n]*\\n");

  /**
   * V76: with additions the head starts with the base bytes, the append starts with
   * {@code - config-keys:} after an empty line, entries are separated by exactly one empty line
   * and the file does not end with an empty line; with corrections only {@code   pr-link:} lines
   * differ, one per correction; with neither the bytes are identical.
   */
  public void checkByteLayout(byte[] base, byte[] head, int additions, int corrections) {
    if (additions > 0) {
      if (head.length < base.length || !Arrays.equals(base, 0, base.length, head, 0, base.length)) {
        throw fail("history-bytes", "appended entries changed historical perf-changelog.yaml "
            + "bytes; restore the base file byte-for-byte and append at the end");
      }
      String suffix = new String(head, base.length, head.length - base.length,
          StandardCharsets.UTF_8);
      boolean baseEndsBlank = endsWith(base, "\n\n");
      if (!suffix.startsWith(baseEndsBlank ? "- config-keys:" : "\n- config-keys:")) {
        throw fail("separator", "new changelog entries must be separated from history by one "
            + "empty line and appended at the end");
      }
      String headText = new String(head, StandardCharsets.UTF_8);
      List<Integer> starts = new ArrayList<>();
      Matcher m = ENTRY_START.matcher(headText);
      while (m.find()) {
        starts.add(m.start());
      }
      List<Integer> appended = starts.subList(Math.max(0, starts.size() - additions), starts.size());
      for (int start : appended.subList(Math.min(1, appended.size()), appended.size())) {
        String prefix = headText.substring(0, start);
        if (!prefix.endsWith("\n\n") || prefix.endsWith("\n\n\n")) {
          throw fail("separator", "appended changelog entries must have exactly one empty "
              + "separator line");
        }
      }
      if (endsWith(head, "\n\n")) {
        throw fail("trailing-blank", "the final appended changelog entry must end with one newline");
      }
      return;
    }
    if (corrections > 0) {
      List<String> b = linesWithEnds(base);
      List<String> h = linesWithEnds(head);
      if (b.size() != h.size()) {
        throw fail("correction-lines", "pr-link corrections may not add or delete lines");
      }
      int changed = 0;
      for (int i = 0; i < b.size(); i++) {
        if (b.get(i).equals(h.get(i))) {
          continue;
        }
        changed++;
        if (!(b.get(i).startsWith("  pr-link:") && h.get(i).startsWith("  pr-link:")
            && b.get(i).endsWith("\n") && h.get(i).endsWith("\n"))) {
          throw fail("correction-lines", "historical bytes changed outside a pr-link line at line "
              + (i + 1));
        }
      }
      if (changed != corrections) {
        throw fail("correction-lines", "expected " + corrections + " changed pr-link line(s), "
            + "found " + changed);
      }
      return;
    }
    if (!Arrays.equals(base, head)) {
      throw fail("no-change", "changelog diff has no appended entry or pr-link correction; "
          + "historical whitespace and formatting are immutable");
    }
  }

  /** Every check in order: both files (V73), entries (V74–V75), bytes (V76). */
  public Change check(byte[] base, byte[] head, String label, OptionalInt prNumber) {
    List<JsonNode> b = checkFile(base, label + " (base)");
    List<JsonNode> h = checkFile(head, label + " (head)");
    Change change = compareEntries(b, h, prNumber);
    checkByteLayout(base, head, change.additions().size(), change.corrections());
    return change;
  }

  private static boolean endsWith(byte[] bytes, String suffix) {
    byte[] s = suffix.getBytes(StandardCharsets.US_ASCII);
    return bytes.length >= s.length
        && Arrays.equals(bytes, bytes.length - s.length, bytes.length, s, 0, s.length);
  }

  private static List<String> linesWithEnds(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
        out.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      out.add(text.substring(start));
    }
    return out;
  }

  private static JsonNode withoutLink(JsonNode entry) {
    ObjectNode copy = ((ObjectNode) entry).deepCopy();
    copy.remove("pr-link");
    return copy;
  }

  private static String link(JsonNode entry) {
    JsonNode l = entry.get("pr-link");
    if (l == null || l.isNull() || (l.isTextual() && l.textValue().isEmpty())) {
      return "";
    }
    return l.isTextual() ? l.textValue() : l.toString();
  }
}
