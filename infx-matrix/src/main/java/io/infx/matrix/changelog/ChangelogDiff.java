package io.infx.matrix.changelog;

import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.changelog.internal.LineDiff;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The lines appended to {@code perf-changelog.yaml} between two revisions (spec §6.2, V65–V66).
 *
 * <p>The changelog is append-only: a removed or edited non-blank line surfaces as a deleted line
 * and is an error; removing blank or whitespace-only lines is tolerated. The added lines, joined
 * with {@code \n}, are the YAML of the new entries. Each added line remembers its line number in
 * the head file so entry errors point into the file the user edited.
 *
 * @param source the changelog file as the user named it (for error locations)
 * @param added the added lines, in head order
 */
public record ChangelogDiff(String source, List<DiffLine> added) {

  private static final Pattern HUNK =
      Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*");

  public ChangelogDiff {
    added = List.copyOf(added);
  }

  /**
   * Diffs two changelog texts in memory (Myers line diff, as {@code git diff}).
   *
   * @throws InfxException kind {@code changelog} (rule {@code changelog.deletion}) when a
   *     non-blank line of {@code base} is missing from {@code head}
   */
  public static ChangelogDiff between(String base, String head, String source) {
    LineDiff.Result r = LineDiff.diff(base, head);
    checkDeletions(r.removed(), source);
    return new ChangelogDiff(source, r.added());
  }

  /**
   * Reads the output of {@code git diff <base>:<file> <head>:<file>} (unified format). Only
   * lines inside hunks count, so an added line that itself starts with {@code ++} is not
   * mistaken for a file header.
   */
  public static ChangelogDiff fromUnifiedDiff(String diff, String source) {
    List<DiffLine> removed = new ArrayList<>();
    List<DiffLine> added = new ArrayList<>();
    boolean inHunk = false;
    int oldLine = 0;
    int newLine = 0;
    for (String line : diff.split("\n", -1)) {
      Matcher m = HUNK.matcher(line);
      if (m.matches()) {
        inHunk = true;
        oldLine = Integer.parseInt(m.group(1));
        newLine = Integer.parseInt(m.group(3));
        continue;
      }
      if (!inHunk || line.isEmpty()) {
        continue;
      }
      switch (line.charAt(0)) {
        case '+' -> added.add(new DiffLine(newLine++, line.substring(1)));
        case '-' -> removed.add(new DiffLine(oldLine++, line.substring(1)));
        case ' ' -> {
          oldLine++;
          newLine++;
        }
        case '\\' -> { } // "\ No newline at end of file"
        default -> inHunk = false; // the next file's header
      }
    }
    checkDeletions(removed, source);
    return new ChangelogDiff(source, added);
  }

  private static void checkDeletions(List<DiffLine> removed, String source) {
    List<Violation> violations = removed.stream()
        .filter(l -> !l.text().strip().isEmpty())
        .map(l -> Violation.builder()
            .ruleId("changelog.deletion")
            .location(new Location(source + " (base)", l.number(), 1))
            .message("Deletions are not allowed in " + source
                + ". Only additions to the changelog are permitted. Found deleted line: "
                + l.text())
            .build())
        .collect(Collectors.toList());
    if (!violations.isEmpty()) {
      throw new ValidationException(ChangelogEntries.KIND, violations);
    }
  }

  /** True when nothing but blank lines was added. */
  public boolean isEmpty() {
    return added.stream().allMatch(l -> l.text().strip().isEmpty());
  }

  /** The added lines joined with {@code \n}: the YAML text of the new entries. */
  public String addedText() {
    return added.stream().map(DiffLine::text).collect(Collectors.joining("\n"));
  }

  /** The head-file line of line {@code yamlLine} (1-based) of {@link #addedText()}. */
  public int headLineOf(int yamlLine) {
    if (added.isEmpty()) {
      return yamlLine;
    }
    if (yamlLine >= 1 && yamlLine <= added.size()) {
      return added.get(yamlLine - 1).number();
    }
    return added.get(added.size() - 1).number() + Math.max(1, yamlLine - added.size());
  }

  /**
   * Parses and validates the added entries.
   *
   * @throws InfxException kind {@code changelog}: no additions (V66), no entries, or invalid
   *     entries (V62–V64), located in the head file
   */
  public List<ChangelogEntry> entries(boolean allowRetired) {
    if (isEmpty()) {
      throw new InfxException(ChangelogEntries.KIND,
          source + ": [changelog.no-additions] No additions found in the changelog file.");
    }
    return ChangelogEntries.parse(addedText(), source, this::headLineOf, allowRetired);
  }
}
