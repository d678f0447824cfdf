package io.infx.results.agentx.internal;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GPU KV-cache capacity (tokens) an engine printed in its logs (spec §4.5), which is more
 * reliable than any Prometheus gauge: vLLM's {@code GPU KV cache size: N tokens} lines and SGLang's
 * {@code max_total_num_tokens=N} lines, summed over engines/ranks and over log files.
 */
public final class KvCapacityLogs {

  /** Only the head of a log is read: capacity is printed at start-up and logs can be huge. */
  static final int MAX_BYTES = 64 * 1024 * 1024;

  private static final Pattern VLLM_ENGINE_TAG = Pattern.compile("\\((EngineCore(?:_DP\\d+)?)\\s+pid=\\d+\\)");
  private static final Pattern VLLM_KV_SIZE = Pattern.compile("GPU KV cache size:\\s*([\\d,]+)\\s*tokens");
  private static final Pattern SGLANG_RANK = Pattern.compile("\\b(DP\\d+\\s+TP\\d+\\s+EP\\d+)\\b");
  private static final Pattern SGLANG_MAX_TOKENS = Pattern.compile("\\bmax_total_num_tokens=(\\d+)\\b");
  private static final Pattern SGLANG_DP_SIZE = Pattern.compile("\\bdp_size=(\\d+)\\b");
  private static final Pattern LINE_BREAK = Pattern.compile("\r\n|[\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]");

  private KvCapacityLogs() {}

  /**
   * The logs the reference reads for a result directory: {@code server.log} in it, then
   * {@code watchtower-*.out} in it and in its three nearest parents (Python {@code Path.parents}
   * semantics: a relative path's last parent is {@code .}), each list sorted, duplicates (by real
   * path) removed.
   */
  public static List<Path> discover(Path resultDir) {
    List<Path> paths = new ArrayList<>();
    Path direct = resultDir.resolve("server.log");
    if (Files.isRegularFile(direct)) {
      paths.add(direct);
    }
    List<Path> roots = new ArrayList<>();
    roots.add(resultDir);
    roots.addAll(pythonParents(resultDir, 3));
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      List<Path> found = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, "watchtower-*.out")) {
        ds.forEach(found::add);
      } catch (IOException e) {
        continue;
      }
      found.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
      paths.addAll(found);
    }
    List<Path> deduped = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (Path p : paths) {
      Path real;
      try {
        real = p.toRealPath();
      } catch (IOException e) {
        real = p.toAbsolutePath().normalize();
      }
      if (seen.add(real)) {
        deduped.add(p);
      }
    }
    return deduped;
  }

  static List<Path> pythonParents(Path path, int limit) {
    Path p = path.normalize();
    List<Path> out = new ArrayList<>();
    Path cur = p.getParent();
    while (cur != null && out.size() < limit) {
      out.add(cur);
      cur = cur.getParent();
    }
    if (!p.isAbsolute() && out.size() < limit && !p.toString().isEmpty()) {
      out.add(Path.of("."));
    }
    return out;
  }

  /** vLLM capacity summed over log files; {@code null} when no file states one. */
  public static Long vllm(List<Path> logs) {
    return sumOver(logs, KvCapacityLogs::vllmFromText);
  }

  /** SGLang capacity summed over log files; {@code null} when no file states one. */
  public static Long sglang(List<Path> logs) {
    return sumOver(logs, KvCapacityLogs::sglangFromText);
  }

  private static Long sumOver(List<Path> logs, Function<String, Long> parser) {
    long total = 0;
    boolean found = false;
    for (Path log : logs) {
      String text = readHead(log);
      Long v = text == null || text.isEmpty() ? null : parser.apply(text);
      if (v != null) {
        total += v;
        found = true;
      }
    }
    return found ? total : null;
  }

  /**
   * vLLM: the last value per {@code (EngineCore[_DPk] pid=…)} tag, summed; untagged lines count
   * only when no line of the file is tagged.
   */
  static Long vllmFromText(String log) {
    Map<String, Long> perEngine = new LinkedHashMap<>();
    long bare = 0;
    boolean bareFound = false;
    for (String line : LINE_BREAK.split(log, -1)) {
      if (!line.contains("GPU KV cache size")) {
        continue;
      }
      Matcher size = VLLM_KV_SIZE.matcher(line);
      if (!size.find()) {
        continue;
      }
      long tokens;
      try {
        tokens = Long.parseLong(size.group(1).replace(",", ""));
      } catch (NumberFormatException e) {
        continue;
      }
      if (tokens <= 0) {
        continue;
      }
      Matcher tag = VLLM_ENGINE_TAG.matcher(line);
      if (tag.find()) {
        perEngine.put(tag.group(1), tokens);
      } else {
        bare += tokens;
        bareFound = true;
      }
    }
    if (!perEngine.isEmpty()) {
      return perEngine.values().stream().mapToLong(Long::longValue).sum();
    }
    return bareFound ? bare : null;
  }

  /**
   * SGLang: the last value per {@code DPi TPj EPk} rank tag, summed — times {@code dp_size} when
   * exactly one rank (or one untagged line) is logged and the log states {@code dp_size} &gt; 1.
   */
  static Long sglangFromText(String log) {
    Map<String, Long> perRank = new LinkedHashMap<>();
    long bare = 0;
    int bareCount = 0;
    Long dpSize = null;
    Matcher dp = SGLANG_DP_SIZE.matcher(log);
    if (dp.find()) {
      try {
        long d = Long.parseLong(dp.group(1));
        dpSize = d > 0 ? d : null;
      } catch (NumberFormatException e) {
        dpSize = null;
      }
    }
    for (String line : LINE_BREAK.split(log, -1)) {
      if (!line.contains("max_total_num_tokens")) {
        continue;
      }
      Matcher size = SGLANG_MAX_TOKENS.matcher(line);
      if (!size.find()) {
        continue;
      }
      long tokens;
      try {
        tokens = Long.parseLong(size.group(1));
      } catch (NumberFormatException e) {
        continue;
      }
      if (tokens <= 0) {
        continue;
      }
      Matcher tag = SGLANG_RANK.matcher(line);
      if (tag.find()) {
        perRank.put(tag.group(1), tokens);
      } else {
        bare += tokens;
        bareCount++;
      }
    }
    if (!perRank.isEmpty()) {
      if (dpSize != null && perRank.size() == 1 && dpSize > 1) {
        return perRank.values().iterator().next() * dpSize;
      }
      return perRank.values().stream().mapToLong(Long::longValue).sum();
    }
    if (bareCount == 1 && dpSize != null && dpSize > 1) {
      return bare * dpSize;
    }
    return bareCount > 0 ? bare : null;
  }

  /** The first {@link #MAX_BYTES} of a file as UTF-8 (malformed bytes replaced, NULs removed). */
  static String readHead(Path log) {
    if (!Files.exists(log)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(log)) {
      byte[] bytes = in.readNBytes(MAX_BYTES);
      CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
      return dec.decode(ByteBuffer.wrap(bytes)).toString().replace("\u0000", "");
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read server log " + log + ": " + e.getMessage(), e);
    }
  }
}
