package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import io.infx.core.python.PythonNumbers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Normalizes every concurrency point of a multi-node group: each {@code <RESULT_FILENAME>_*.json}
 * in the directory, with the prefill/decode GPU counts taken from the file name, as the multi-node
 * workflow does ({@code …_conc<C>_gpus_<G>[_ctx_<P>_gen_<D>].json}: {@code P}/{@code D} from
 * {@code ctx}/{@code gen}, or {@code P = G}, {@code D = 0} without them).
 *
 * <p>Safer than the workflow, as the newer upstream driver: a file whose name lacks the
 * concurrency and GPU counts is reported instead of silently skipped; the raw
 * {@code max_concurrency} must equal the name's, concurrencies may not repeat, {@code ctx + gen}
 * must equal {@code gpus}, and the observed concurrencies are checked against {@code CONC_LIST}. A
 * summary {@code result_processing_<RESULT_FILENAME>.json} records every point.
 */
public final class MultiNodeBatch {

  private static final Pattern POINT = Pattern.compile(
      "_(?:c|conc|concurrency_)(\\d+)(?:_req_rate_[^_]+)?_gpus_(\\d+)(?:_ctx_(\\d+)_gen_(\\d+))?$");

  private MultiNodeBatch() {}

  /**
   * The concurrency and GPU counts encoded in a point's file-name stem.
   *
   * @param ctxGpus prefill GPUs ({@code _ctx_<P>}) of a disaggregated point
   * @param genGpus decode GPUs ({@code _gen_<D>}) of a disaggregated point
   */
  public record PointName(int concurrency, int gpus, OptionalInt ctxGpus, OptionalInt genGpus) {

    /** {@code ctx} when given, else all GPUs (an aggregate point). */
    public int prefillGpus() {
      return ctxGpus.isPresent() ? ctxGpus.getAsInt() : gpus;
    }

    /** {@code gen} when given, else 0. */
    public int decodeGpus() {
      return genGpus.isPresent() ? genGpus.getAsInt() : 0;
    }

    /** Parses the end of a file-name stem; empty when it carries no concurrency and GPU count. */
    public static Optional<PointName> parse(String stem) {
      Matcher m = POINT.matcher(stem);
      if (!m.find()) {
        return Optional.empty();
      }
      try {
        return Optional.of(new PointName(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            m.group(3) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(3))),
            m.group(4) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(4)))));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
  }

  /** Outcome of one point: its file, concurrency, exit status and error (if any). */
  public record Point(String source, OptionalInt concurrency, int exitCode, Optional<String> error,
      Optional<ProcessedResult> result) {}

  /** Outcome of the whole group. */
  public record Report(Path summaryFile, List<Integer> expected, List<Integer> missing,
      List<Integer> unexpected, List<Point> points, List<String> ignoredSidecars, int exitCode) {

    /** The summary as written to {@code result_processing_<RESULT_FILENAME>.json}. */
    public ObjectNode toJson() {
      ObjectNode o = Json.mapper().createObjectNode();
      ints(o.putArray("expected_concurrencies"), expected);
      ints(o.putArray("missing_concurrencies"), missing);
      ints(o.putArray("unexpected_concurrencies"), unexpected);
      ArrayNode ps = o.putArray("points");
      for (Point p : points) {
        ObjectNode po = ps.addObject();
        po.put("source", p.source());
        if (p.concurrency().isPresent()) {
          po.put("concurrency", p.concurrency().getAsInt());
        } else {
          po.putNull("concurrency");
        }
        po.put("exit_code", p.exitCode());
        p.error().ifPresent(e -> po.put("error", e));
      }
      ArrayNode ign = o.putArray("ignored_sidecars");
      ignoredSidecars.forEach(ign::add);
      o.put("exit_code", exitCode);
      return o;
    }

    /** The summary as JSON text (Python {@code json.dumps(…, indent=2)}). */
    public String toJsonText() {
      return PythonJson.dumps(toJson(), 2);
    }

    private static void ints(ArrayNode a, List<Integer> values) {
      values.forEach(a::add);
    }
  }

  /**
   * Processes every point of the group named by {@code RESULT_FILENAME} in {@code workDir}.
   * Individual point failures are recorded, not thrown.
   *
   * @throws ResultsException {@code missing_env} / {@code invalid_env_value} for the group itself
   */
  public static Report processAll(Map<String, String> env, Path workDir, NormalizerOptions options) {
    String group = ResultNames.checked(ReferenceEnvironment.resultFilename(env));
    List<Integer> expected = new ArrayList<>();
    String concList = env.get(io.infx.core.launch.LaunchVariable.CONC_LIST.name());
    if (concList != null && !concList.isBlank()) {
      for (String c : concList.trim().split("\\s+")) {
        PythonNumbers.Conversion<Integer> v = PythonNumbers.parseInt(c);
        if (!v.ok() || v.value().get() <= 0) {
          throw new ResultsException(ErrorKind.INVALID_ENV_VALUE,
              "CONC_LIST must contain positive concurrencies, got '" + concList + "'");
        }
        expected.add(v.value().get());
      }
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(workDir)) {
      String prefix = group + "_";
      files = s.filter(p -> {
        String n = p.getFileName().toString();
        return n.startsWith(prefix) && n.endsWith(".json") && Files.isRegularFile(p);
      }).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot list " + workDir + ": " + e.getMessage(), e);
    }
    List<Point> points = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    Set<Integer> observed = new TreeSet<>();
    int status = 0;
    for (Path f : files) {
      String name = f.getFileName().toString();
      String stem = name.substring(0, name.length() - ".json".length());
      if (name.endsWith(".pytorch.json") || name.equals(group + "_gpu_metrics_context.json")
          || name.equals(group + "_gpu_metrics_identity.json")) {
        ignored.add(name);
        continue;
      }
      Point p = processPoint(env, workDir, options, stem, observed);
      points.add(p);
      status = Math.max(status, p.exitCode());
    }
    Set<Integer> expectedSet = new LinkedHashSet<>(expected);
    List<Integer> missing = expectedSet.stream().filter(c -> !observed.contains(c)).sorted()
        .collect(Collectors.toList());
    List<Integer> unexpected = expectedSet.isEmpty() ? List.of()
        : observed.stream().filter(c -> !expectedSet.contains(c)).collect(Collectors.toList());
    if (!missing.isEmpty() || !unexpected.isEmpty() || points.isEmpty()) {
      status = Math.max(status, 1);
    }
    Path summary = workDir.resolve("result_processing_" + group + ".json");
    Report report = new Report(summary, expectedSet.stream().sorted().collect(Collectors.toList()),
        missing, unexpected, List.copyOf(points), List.copyOf(ignored), status);
    AtomicFiles.writeString(summary, report.toJsonText());
    return report;
  }

  private static Point processPoint(Map<String, String> env, Path workDir,
      NormalizerOptions options, String stem, Set<Integer> observed) {
    String source = stem + ".json";
    Optional<PointName> parsed = PointName.parse(stem);
    if (parsed.isEmpty()) {
      return failed(source, OptionalInt.empty(), "Result filename lacks concurrency and physical GPU counts");
    }
    PointName n = parsed.get();
    OptionalInt conc = OptionalInt.of(n.concurrency());
    if (n.ctxGpus().isPresent() && n.ctxGpus().getAsInt() + n.genGpus().getAsInt() != n.gpus()) {
      return failed(source, conc, "ctx + gen GPUs (" + n.ctxGpus().getAsInt() + " + "
          + n.genGpus().getAsInt() + ") do not add up to gpus_" + n.gpus());
    }
    try {
      JsonNode raw = ResultProcessor.readRaw(workDir.resolve(source));
      JsonNode mc = raw.get("max_concurrency");
      if (mc == null || !mc.isIntegralNumber() || mc.intValue() != n.concurrency()) {
        return failed(source, conc, "Result concurrency does not match its filename (max_concurrency "
            + (mc == null ? "missing" : mc.toString()) + ", name conc" + n.concurrency() + ")");
      }
      if (!observed.add(n.concurrency())) {
        return failed(source, conc, "Duplicate concurrency result within one recipe");
      }
      Map<String, String> pointEnv = new HashMap<>(env);
      pointEnv.put(io.infx.core.launch.LaunchVariable.RESULT_FILENAME.name(), stem);
      pointEnv.put(io.infx.core.launch.LaunchVariable.IS_MULTINODE.name(), "true");
      pointEnv.put(io.infx.core.launch.LaunchVariable.PREFILL_GPUS.name(), Integer.toString(n.prefillGpus()));
      pointEnv.put(io.infx.core.launch.LaunchVariable.DECODE_GPUS.name(), Integer.toString(n.decodeGpus()));
      ProcessedResult r = ResultProcessor.processEnvironment(pointEnv, workDir, options);
      return new Point(source, conc, r.exitCode(), Optional.empty(), Optional.of(r));
    } catch (PowerRequiredException e) {
      return new Point(source, conc, 1, Optional.of(e.getMessage()), Optional.of(e.result()));
    } catch (ResultsException e) {
      return failed(source, conc, e.kind().wireName() + ": " + e.getMessage());
    }
  }

  private static Point failed(String source, OptionalInt conc, String error) {
    return new Point(source, conc, 1, Optional.of(error), Optional.empty());
  }
}
