package io.infx.results;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Violation;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The run-level collector (reference {@code utils/collect_results.py}): every {@code *.json} under a
 * directory, in sorted path order, becomes one element of the {@code agg_bmk.json} array — a file
 * holding a list becomes one nested element, agentic rows are included, nothing is deduplicated.
 * Empty and unparseable files are skipped and reported, as the reference does.
 *
 * <p>Beyond the reference, every element is validated against {@link AggregateSchema} and rows
 * sharing a {@link NaturalKey} are reported as duplicates. In strict mode only valid, first-seen rows
 * are written and the rest become rejects.
 */
public final class Collector {

  // Python's json accepts duplicate keys (last value wins, first position kept); so does this.
  private static final ObjectMapper LENIENT =
      Json.mapper().copy().disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());

  private Collector() {}

  /**
   * One collected element and the file it came from (path relative to the collected directory).
   *
   * @param violations schema violations, empty for a valid row
   * @param duplicateOf source of an earlier valid row with the same natural key, if any
   */
  public record Entry(String source, JsonNode value, List<Violation> violations,
      Optional<String> duplicateOf) {
    /** True when the element has no schema violation (duplicates may still be valid). */
    public boolean valid() {
      return violations.isEmpty();
    }
  }

  /** A file that was skipped, and why. */
  public record Skipped(String source, String reason) {}

  /** Rows that share a natural key, in collection order. */
  public record Duplicate(NaturalKey key, List<String> sources) {}

  /** A row (or file) the strict collector refused, with its errors. */
  public record Reject(String source, JsonNode row, List<String> errors) {}

  /**
   * Everything the collector found.
   *
   * @param directory the collected directory; {@code null} for typed rows ({@link #collect(List)})
   */
  public record Report(
      Path directory, List<Entry> entries, List<Skipped> skipped, List<Duplicate> duplicates) {

    /** Number of AgentX rows (identity checked only). */
    public long agenticRows() {
      return entries.stream().filter(e -> AggregateSchema.isAgentic(e.value())).count();
    }

    /** Elements with schema violations, in collection order. */
    public List<Entry> invalid() {
      return entries.stream().filter(e -> !e.valid()).collect(Collectors.toList());
    }

    /** All elements, as the reference writes them. */
    public ArrayNode allRows() {
      ArrayNode a = Json.mapper().createArrayNode();
      entries.forEach(e -> a.add(e.value()));
      return a;
    }

    /** Valid rows whose natural key was not seen before (strict output). */
    public ArrayNode acceptedRows() {
      ArrayNode a = Json.mapper().createArrayNode();
      entries.stream().filter(e -> e.valid() && e.duplicateOf().isEmpty()).forEach(e -> a.add(e.value()));
      return a;
    }

    /** Skipped files, invalid rows and later duplicates, with their reasons. */
    public List<Reject> rejects() {
      List<Reject> out = new ArrayList<>();
      for (Skipped s : skipped) {
        out.add(new Reject(s.source(), null, List.of(s.reason())));
      }
      for (Entry e : entries) {
        List<String> errors = new ArrayList<>();
        e.violations().forEach(v -> errors.add(v.render()));
        e.duplicateOf().ifPresent(first ->
            errors.add("duplicate of the row from " + first + " (same natural key)"));
        if (!errors.isEmpty()) {
          out.add(new Reject(e.source(), e.value(), errors));
        }
      }
      return out;
    }
  }

  /**
   * Collects every {@code *.json} under {@code dir} (recursively, symbolic links not followed),
   * skipping the given paths (e.g. the output file when it lies inside {@code dir}).
   *
   * @throws InfxException kind {@code file} when the directory cannot be read
   */
  public static Report collect(Path dir, Set<Path> exclude) {
    if (!Files.isDirectory(dir)) {
      throw new InfxException(ErrorKind.FILE, "not a directory: " + dir);
    }
    Set<Path> excluded = exclude.stream().map(p -> p.toAbsolutePath().normalize())
        .collect(Collectors.toSet());
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".json"))
          .filter(Files::isRegularFile)
          .filter(p -> !excluded.contains(p.toAbsolutePath().normalize()))
          .collect(Collectors.toList());
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot list " + dir + ": " + e.getMessage(), e);
    }
    List<String> names = new ArrayList<>();
    Map<String, Path> byName = new LinkedHashMap<>();
    for (Path p : files) {
      String rel = dir.relativize(p).toString().replace('\\', '/');
      names.add(rel);
      byName.put(rel, p);
    }
    names.sort(null);
    List<Entry> entries = new ArrayList<>();
    List<Skipped> skipped = new ArrayList<>();
    for (String name : names) {
      Path p = byName.get(name);
      try {
        byte[] bytes = Files.readAllBytes(p);
        if (bytes.length == 0) {
          skipped.add(new Skipped(name, "empty JSON artifact"));
          continue;
        }
        JsonNode node = LENIENT.readTree(bytes);
        if (node == null || node.isMissingNode()) {
          skipped.add(new Skipped(name, "invalid JSON artifact: no JSON document"));
          continue;
        }
        entries.add(new Entry(name, node, AggregateSchema.validate(node), Optional.empty()));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        String where = e.getLocation() == null ? ""
            : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        skipped.add(new Skipped(name, "invalid JSON artifact" + where + ": " + e.getOriginalMessage()));
      } catch (IOException e) {
        skipped.add(new Skipped(name, "unreadable: " + e.getMessage()));
      }
    }
    return report(dir, entries, skipped);
  }

  /**
   * Collects typed aggregate rows, in the given order, exactly as {@link #collect(Path, Set)}
   * collects the same rows written as {@code agg_*.json} files whose sorted paths give that order:
   * the same elements ({@link AggregateRow#toJson()}, reference key order and JSON types), the same
   * schema check ({@link AggregateSchema}) and the same duplicate detection by {@link NaturalKey}.
   * Nothing is read from or written to disk ({@link #write(Path, List)} writes {@code agg_bmk.json}).
   *
   * @param rows the rows; an element's source is its position, {@code rows[<i>]}
   * @return the report; {@link Report#directory()} is {@code null} (no directory was read) and
   *     nothing is ever skipped
   * @throws NullPointerException naming {@code rows} or {@code rows[<i>]} for a null list or element
   */
  public static Report collect(List<AggregateRow> rows) {
    java.util.Objects.requireNonNull(rows, "rows");
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      AggregateRow row = java.util.Objects.requireNonNull(rows.get(i), "rows[" + i + "]");
      ObjectNode value = row.toJson();
      entries.add(new Entry("rows[" + i + "]", value, AggregateSchema.validate(value), Optional.empty()));
    }
    return report(null, entries, List.of());
  }

  /** Marks later valid rows with an earlier valid row's natural key as duplicates, and groups them. */
  private static Report report(Path dir, List<Entry> entries, List<Skipped> skipped) {
    Map<NaturalKey, List<String>> groups = new LinkedHashMap<>();
    Map<NaturalKey, String> firstValid = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      Optional<NaturalKey> key = NaturalKey.of(e.value());
      if (key.isEmpty()) {
        continue;
      }
      groups.computeIfAbsent(key.get(), x -> new ArrayList<>()).add(e.source());
      if (e.valid()) {
        String first = firstValid.putIfAbsent(key.get(), e.source());
        if (first != null) {
          entries.set(i, new Entry(e.source(), e.value(), e.violations(), Optional.of(first)));
        }
      }
    }
    List<Duplicate> duplicates = new ArrayList<>();
    groups.forEach((k, sources) -> {
      if (sources.size() > 1) {
        duplicates.add(new Duplicate(k, List.copyOf(sources)));
      }
    });
    return new Report(dir, List.copyOf(entries), List.copyOf(skipped), List.copyOf(duplicates));
  }

  /**
   * Writes typed rows as {@code agg_bmk.json} ({@code json.dump(rows, f, indent=2)}), atomically: the
   * bytes {@link #collect(Path, Set)} followed by {@link #write(Path, ArrayNode)} of {@link
   * Report#allRows()} would write for the same rows as files.
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public static void write(Path target, List<AggregateRow> rows) {
    write(target, collect(rows).allRows());
  }

  /**
   * Writes a JSON array as the reference does ({@code json.dump(rows, f, indent=2)}), atomically.
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public static void write(Path target, ArrayNode rows) {
    AtomicFiles.writeString(target, PythonJson.dumps(rows, 2));
  }

  /**
   * Writes {@code rejected_rows.json}: {@code [{"source", "errors", "row"}]} ({@code row}
   * omitted for a skipped file), atomically.
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public static void writeRejects(Path target, List<Reject> rejects) {
    ArrayNode a = Json.mapper().createArrayNode();
    for (Reject r : rejects) {
      ObjectNode o = a.addObject();
      o.put("source", r.source());
      ArrayNode errors = o.putArray("errors");
      r.errors().forEach(errors::add);
      if (r.row() != null) {
        o.set("row", r.row());
      }
    }
    AtomicFiles.writeString(target, PythonJson.dumps(a, 2));
  }
}
