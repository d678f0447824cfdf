package io.infx.client.agentx;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Selects a trace corpus by name or path (spec {@code agentx.md} §2.4), never downloading:
 *
 * <ul>
 *   <li>{@code synthetic[:key=value,...]} — a generated corpus ({@link SyntheticCorpus});
 *   <li>a file or directory of Weka traces ({@code .json}/{@code .jsonl});
 *   <li>an InferenceX loader name such as {@code semianalysis_cc_traces_weka_062126_256k}, or its
 *       Hugging Face dataset id ({@code semianalysisai/cc-traces-weka-062126-256k}), read from the
 *       local Hugging Face cache ({@code $HF_HUB_CACHE}, {@code $HF_HOME/hub},
 *       {@code ~/.cache/huggingface/hub}).
 * </ul>
 */
public final class TraceSources {

  /** InferenceX's default corpus for model families without an override. */
  public static final String DEFAULT_LOADER = "semianalysis_cc_traces_weka_062126_256k";

  /** Loader names of the Aug snapshot and the datasets they read. */
  public static final Map<String, String> LOADERS;

  static {
    Map<String, String> m = new LinkedHashMap<>();
    for (String date : new String[] {"062126", "061526", "061326"}) {
      m.put("semianalysis_cc_traces_weka_" + date, "semianalysisai/cc-traces-weka-" + date);
      m.put("semianalysis_cc_traces_weka_" + date + "_256k", "semianalysisai/cc-traces-weka-" + date + "-256k");
    }
    m.put("semianalysis_cc_traces_weka_with_subagents", "semianalysisai/cc-traces-weka-061526");
    m.put("semianalysis_cc_traces_weka_with_subagents_256k", "semianalysisai/cc-traces-weka-061526-256k");
    for (String date : new String[] {"060226", "060526", "060826"}) {
      m.put("semianalysis_cc_traces_weka_with_subagents_" + date, "semianalysisai/cc-traces-weka-with-subagents-" + date);
      m.put("semianalysis_cc_traces_weka_with_subagents_" + date + "_256k",
          "semianalysisai/cc-traces-weka-with-subagents-" + date + "-256k");
    }
    LOADERS = java.util.Collections.unmodifiableMap(m);
  }

  /** Model families that replay the uncapped corpus (their context holds the long sessions). */
  private static final List<String> UNCAPPED_PREFIXES = List.of("dsv4", "glm5.2", "minimaxm3", "kimik3");

  /**
   * InferenceX's default corpus for a model prefix (e.g. {@code dsv4}, {@code gptoss}): the
   * uncapped {@code semianalysis_cc_traces_weka_062126} for the long-context families
   * {@code dsv4*}, {@code glm5.2*}, {@code minimaxm3*}, {@code kimik3*}, else the 256k-capped one.
   */
  public static String defaultLoader(String modelPrefix) {
    String p = modelPrefix == null ? "" : modelPrefix.toLowerCase(java.util.Locale.ROOT);
    return UNCAPPED_PREFIXES.stream().anyMatch(p::startsWith)
        ? "semianalysis_cc_traces_weka_062126" : DEFAULT_LOADER;
  }

  /** A loaded corpus and how it was named. */
  public record Corpus(List<WekaTrace> traces, String source, String description) {}

  private TraceSources() {}

  /**
   * Loads the corpus {@code spec} names.
   *
   * @param env for the Hugging Face cache location
   * @throws InfxException kind {@code trace-source} when nothing matches, with what was looked for
   */
  public static Corpus load(String spec, Map<String, String> env) {
    if (spec.equals("synthetic") || spec.startsWith("synthetic:")) {
      SyntheticCorpus c = SyntheticCorpus.parse(spec);
      return new Corpus(c.generate(), "synthetic", c.traces() + " synthetic traces, " + c.requestCount() + " requests");
    }
    Path p = Path.of(spec);
    if (Files.exists(p)) {
      List<WekaTrace> t = WekaTraces.load(p);
      return new Corpus(t, spec, t.size() + " traces from " + spec);
    }
    String dataset = LOADERS.getOrDefault(spec, spec.contains("/") ? spec : null);
    if (dataset == null) {
      throw new InfxException(ErrorKind.TRACE_SOURCE, "unknown trace source '" + spec + "': expected a trace "
          + "file or directory, synthetic[:key=value,...], a Hugging Face dataset id, or one of "
          + String.join(", ", LOADERS.keySet()));
    }
    Path cache = hubCache(env);
    Path repo = cache.resolve("datasets--" + dataset.replace("/", "--"));
    Optional<Path> snapshot = snapshot(repo);
    if (snapshot.isEmpty()) {
      throw new InfxException(ErrorKind.TRACE_SOURCE, "dataset " + dataset + " is not in the local Hugging Face "
          + "cache (" + repo + "); infx never downloads: run `hf download --repo-type dataset "
          + dataset + "` first, or pass a traces.jsonl path");
    }
    List<WekaTrace> t = WekaTraces.load(snapshot.get());
    return new Corpus(t, spec, t.size() + " traces of " + dataset);
  }

  /** The Hugging Face hub cache: HF_HUB_CACHE, else HUGGINGFACE_HUB_CACHE, else HF_HOME/hub, else ~/.cache. */
  static Path hubCache(Map<String, String> env) {
    for (String k : new String[] {io.infx.core.launch.LaunchVariable.HF_HUB_CACHE.name(), "HUGGINGFACE_HUB_CACHE"}) {
      String v = env.get(k);
      if (v != null && !v.isEmpty()) {
        return Path.of(v);
      }
    }
    String home = env.get("HF_HOME");
    if (home != null && !home.isEmpty()) {
      return Path.of(home, "hub");
    }
    return Path.of(System.getProperty("user.home"), ".cache", "huggingface", "hub");
  }

  /** The snapshot directory named by refs/main, else the newest one holding trace files. */
  private static Optional<Path> snapshot(Path repo) {
    Path snaps = repo.resolve("snapshots");
    if (!Files.isDirectory(snaps)) {
      return Optional.empty();
    }
    try {
      Path ref = repo.resolve("refs/main");
      if (Files.isRegularFile(ref)) {
        Path s = snaps.resolve(Files.readString(ref).strip());
        if (Files.isDirectory(s)) {
          return Optional.of(s);
        }
      }
      try (Stream<Path> st = Files.list(snaps)) {
        return st.filter(Files::isDirectory).max(Comparator.comparing(TraceSources::mtime));
      }
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static long mtime(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
