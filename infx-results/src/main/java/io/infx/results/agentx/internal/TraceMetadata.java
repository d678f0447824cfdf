package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recorded output lengths of the AgentX corpus, read from the local Hugging Face cache, so the
 * aggregate can report {@code tokens.output_expected} (spec §4.4). The lookup reproduces the
 * reference (Aug snapshot): the newest-modified snapshot of any
 * {@code datasets--semianalysisai--cc-traces-weka*} dataset that holds {@code *.jsonl} or
 * {@code *.json} files; per trace id, the {@code out} of its top-level {@code n}/{@code s}
 * requests in order (subagent entries skipped, so subagent records index their parent's turns — a
 * reference quirk kept for comparability).
 */
public final class TraceMetadata {

  private final Map<String, long[]> outputsByTrace;

  private TraceMetadata(Map<String, long[]> outputsByTrace) {
    this.outputsByTrace = outputsByTrace;
  }

  /** No metadata: {@code output_expected} stays empty. */
  public static TraceMetadata none() {
    return new TraceMetadata(Map.of());
  }

  public boolean isEmpty() {
    return outputsByTrace.isEmpty();
  }

  /**
   * The cache root the reference uses: {@code HF_HUB_CACHE}, else {@code HUGGINGFACE_HUB_CACHE},
   * else {@code $HF_HOME/hub}, else {@code ~/.cache/huggingface/hub}.
   *
   * @param base directory that relative paths in the environment are resolved against
   */
  public static Path hubCache(Map<String, String> env, Path base) {
    String hub = firstNonEmpty(env.get(io.infx.core.launch.LaunchVariable.HF_HUB_CACHE.name()), env.get("HUGGINGFACE_HUB_CACHE"));
    if (hub != null) {
      return base.resolve(hub);
    }
    String home = env.get("HF_HOME");
    if (home != null && !home.isEmpty()) {
      return base.resolve(home).resolve("hub");
    }
    String userHome = firstNonEmpty(env.get("HOME"), System.getProperty("user.home"));
    return Path.of(userHome, ".cache", "huggingface", "hub");
  }

  /** Loads the metadata under {@code cacheRoot}; empty when nothing usable is there. */
  public static TraceMetadata load(Path cacheRoot, ObjectMapper mapper) {
    Path snapshot = newestSnapshot(cacheRoot);
    if (snapshot == null) {
      return none();
    }
    Map<String, long[]> out = new HashMap<>();
    for (Path jsonl : sortedGlob(snapshot, "*.jsonl")) {
      try (BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
        String line;
        while ((line = in.readLine()) != null) {
          if (!line.isBlank()) {
            addTrace(out, parse(mapper, line));
          }
        }
      } catch (IOException e) {
        // unreadable file: the reference skips it
      }
    }
    for (Path json : sortedGlob(snapshot, "*.json")) {
      try {
        addTrace(out, mapper.readTree(json.toFile()));
      } catch (IOException e) {
        // malformed or unreadable: skipped, as in the reference
      }
    }
    return new TraceMetadata(out);
  }

  private static JsonNode parse(ObjectMapper mapper, String line) {
    try {
      return mapper.readTree(line);
    } catch (IOException e) {
      return null;
    }
  }

  private static void addTrace(Map<String, long[]> out, JsonNode blob) {
    if (blob == null || !blob.isObject()) {
      return;
    }
    JsonNode id = blob.get("id");
    if (!JsonValues.truthy(id)) {
      return;
    }
    List<Long> outputs = new ArrayList<>();
    JsonNode requests = blob.get("requests");
    if (requests != null && requests.isArray()) {
      for (JsonNode r : requests) {
        JsonNode type = JsonValues.member(r, "type");
        if (type == null || !type.isTextual() || !(type.textValue().equals("n") || type.textValue().equals("s"))) {
          continue;
        }
        JsonNode len = r.get("output_length");
        if (len == null || len.isNull()) {
          len = r.get("out");
        }
        Long v = JsonValues.truthy(len) ? JsonValues.toInt(len) : Long.valueOf(0);
        outputs.add(v == null ? 0 : v);
      }
    }
    if (!outputs.isEmpty()) {
      out.put(JsonValues.pyStr(id), outputs.stream().mapToLong(Long::longValue).toArray());
    }
  }

  /**
   * The recorded output length for each record whose conversation (text before {@code ::}) and
   * turn index name a known turn; records without a match are skipped.
   */
  public long[] expectedOutputs(List<ProfileRecords.Kept> kept) {
    if (outputsByTrace.isEmpty()) {
      return new long[0];
    }
    long[] values = new long[kept.size()];
    int n = 0;
    for (ProfileRecords.Kept k : kept) {
      if (k.conversationId() == null || k.conversationId().isEmpty() || k.turnIndex() == null) {
        continue;
      }
      String traceId = k.conversationId().split("::", 2)[0];
      long[] turns = outputsByTrace.get(traceId);
      if (turns == null || turns.length == 0) {
        continue;
      }
      long idx = k.turnIndex();
      if (idx >= turns.length || idx < -turns.length) {
        continue;
      }
      values[n++] = turns[(int) (idx < 0 ? idx + turns.length : idx)];
    }
    return java.util.Arrays.copyOf(values, n);
  }

  private static Path newestSnapshot(Path cacheRoot) {
    if (!Files.isDirectory(cacheRoot)) {
      return null;
    }
    List<Path> snapshots = new ArrayList<>();
    try (DirectoryStream<Path> datasets =
        Files.newDirectoryStream(cacheRoot, "datasets--semianalysisai--cc-traces-weka*")) {
      for (Path dataset : datasets) {
        Path snapRoot = dataset.resolve("snapshots");
        if (!Files.isDirectory(snapRoot)) {
          continue;
        }
        try (DirectoryStream<Path> snaps = Files.newDirectoryStream(snapRoot)) {
          for (Path s : snaps) {
            if (Files.isDirectory(s)) {
              snapshots.add(s);
            }
          }
        }
      }
    } catch (IOException e) {
      return null;
    }
    snapshots.sort(Comparator.comparing(TraceMetadata::mtime).reversed());
    for (Path s : snapshots) {
      if (!sortedGlob(s, "*.jsonl").isEmpty() || !sortedGlob(s, "*.json").isEmpty()) {
        return s;
      }
    }
    return null;
  }

  private static FileTime mtime(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  private static List<Path> sortedGlob(Path dir, String glob) {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
      ds.forEach(out::add);
    } catch (IOException e) {
      return out;
    }
    out.sort(Comparator.comparing(p -> p.getFileName().toString()));
    return out;
  }

  private static String firstNonEmpty(String a, String b) {
    if (a != null && !a.isEmpty()) {
      return a;
    }
    return b != null && !b.isEmpty() ? b : null;
  }
}
