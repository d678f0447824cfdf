package io.infx.results.power;

import io.infx.core.python.PythonNumbers;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Single-node GPU board power over the benchmark window (reference {@code utils/aggregate_power.py}):
 * per-GPU trapezoidal integration with linear interpolation at the window edges. A measurement is
 * valid only when every expected GPU has samples bracketing both window edges with no in-window gap
 * above the maximum, and the raw result has a sound window and positive request / token counts.
 */
final class SingleNodePower {

  static final String METHOD = "per_device_trapezoidal_with_linear_boundary_interpolation";

  private SingleNodePower() {}

  /** Per-GPU integration result. */
  record Integration(
      List<String> reasons,
      List<String> observedGpuIds,
      Map<String, Integer> sampleCounts,
      Map<String, Double> maxGaps,
      Map<String, Double> energies,
      Map<String, List<String>> deviceIssues,
      Optional<Double> avgPowerW,
      Optional<Double> avgTotalGpuPowerW,
      Optional<Double> totalGpuEnergyJ) {

    static Integration empty(List<String> reasons) {
      return new Integration(reasons, List.of(), Map.of(), Map.of(), Map.of(), Map.of(),
          Optional.empty(), Optional.empty(), Optional.empty());
    }
  }

  static PowerValidation assess(
      com.fasterxml.jackson.databind.JsonNode raw, Path csv, String csvLabel, String rawLabel,
      int expectedGpus, double maxGap, ZoneId zone) {
    BenchmarkWindow.Loaded loaded = BenchmarkWindow.load(raw);
    Integration integration = loaded.window()
        .map(w -> integrate(csv, w.startUnix(), w.endUnix(), expectedGpus, maxGap, zone))
        .orElseGet(() -> Integration.empty(new ArrayList<>(loaded.reasons())));
    List<String> reasons = new ArrayList<>(loaded.reasons());
    for (String r : integration.reasons()) {
      add(reasons, r);
    }
    boolean valid = reasons.isEmpty();
    Map<String, Double> metrics = new LinkedHashMap<>();
    if (valid) {
      BenchmarkWindow w = loaded.window().orElseThrow();
      double energy = integration.totalGpuEnergyJ().orElseThrow();
      metrics.put("avg_power_w", integration.avgPowerW().orElseThrow());
      metrics.put("avg_total_gpu_power_w", integration.avgTotalGpuPowerW().orElseThrow());
      metrics.put("total_gpu_energy_j", energy);
      metrics.put("joules_per_successful_query", energy / w.completed());
      metrics.put("joules_per_input_token", energy / w.totalInputTokens());
      metrics.put("joules_per_output_token", energy / w.totalOutputTokens());
      metrics.put("joules_per_total_token",
          energy / (w.totalInputTokens() + w.totalOutputTokens()));
      if (metrics.values().stream().anyMatch(v -> !Double.isFinite(v))) {
        valid = false;
        metrics.clear();
        add(reasons, "aggregate_result_unwritable");
      }
    }
    Map<String, Double> published = new LinkedHashMap<>();
    metrics.forEach((k, v) -> published.put(k, PythonNumbers.round(v, k.endsWith("_w") || k.endsWith("_j") ? 3 : 6)));
    return new PowerValidation(valid, reasons, published,
        sidecar(csvLabel, rawLabel, loaded.window(), integration, expectedGpus, valid, reasons, metrics));
  }

  static Integration integrate(
      Path csv, double start, double end, int expectedGpus, double maxGap, ZoneId zone) {
    List<String> reasons = new ArrayList<>();
    if (!Double.isFinite(start) || !Double.isFinite(end) || end <= start) {
      return Integration.empty(List.of("invalid_benchmark_window"));
    }
    if (expectedGpus <= 0) {
      add(reasons, "invalid_expected_gpu_count");
    }
    if (!Files.isRegularFile(csv)) {
      add(reasons, "telemetry_file_missing");
      return Integration.empty(reasons);
    }
    try {
      if (Files.size(csv) == 0) {
        add(reasons, "telemetry_file_empty");
        return Integration.empty(reasons);
      }
    } catch (IOException e) {
      add(reasons, "telemetry_file_unreadable");
      return Integration.empty(reasons);
    }

    Map<String, Map<Double, List<Double>>> samplesByGpu = new LinkedHashMap<>();
    boolean missingGpuIdentity = false;
    try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(
        Files.newInputStream(csv), StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE)))) {
      String headerLine = nextNonBlank(in);
      List<String> header = new ArrayList<>();
      if (headerLine != null) {
        for (String h : TelemetryCsv.split(headerLine)) {
          header.add(h.strip());
        }
      }
      TelemetryCsv.Columns cols = TelemetryCsv.detect(header);
      boolean missingColumns = false;
      if (cols.timestamp() < 0) {
        add(reasons, "timestamp_column_missing");
        missingColumns = true;
      }
      if (cols.power() < 0) {
        add(reasons, "power_column_missing");
        missingColumns = true;
      }
      if (cols.gpu() < 0) {
        add(reasons, "gpu_identity_column_missing");
        missingColumns = true;
      }
      if (missingColumns) {
        return Integration.empty(reasons);
      }
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isEmpty()) {
          continue;
        }
        List<String> row = TelemetryCsv.split(line);
        OptionalDouble ts = TelemetryCsv.parseTimestamp(cell(row, cols.timestamp()), zone);
        if (ts.isEmpty() || !Double.isFinite(ts.getAsDouble())) {
          add(reasons, "invalid_timestamp_sample");
          continue;
        }
        double t = ts.getAsDouble();
        if (t < start - maxGap || t > end + maxGap) {
          continue;
        }
        OptionalDouble power = TelemetryCsv.parsePower(cell(row, cols.power()));
        String gpu = cell(row, cols.gpu()).strip();
        if (power.isEmpty() || !Double.isFinite(power.getAsDouble()) || power.getAsDouble() < 0) {
          add(reasons, "invalid_power_sample");
          continue;
        }
        if (gpu.isEmpty()) {
          missingGpuIdentity = true;
          continue;
        }
        samplesByGpu.computeIfAbsent(gpu, g -> new LinkedHashMap<>())
            .computeIfAbsent(t, x -> new ArrayList<>())
            .add(power.getAsDouble());
      }
    } catch (IOException | RuntimeException e) {
      add(reasons, "telemetry_file_unreadable");
      return Integration.empty(reasons);
    }
    if (missingGpuIdentity) {
      add(reasons, "gpu_identity_missing");
    }
    if (samplesByGpu.isEmpty()) {
      add(reasons, "no_usable_power_samples");
      return Integration.empty(reasons);
    }

    List<String> ids = new ArrayList<>(samplesByGpu.keySet());
    ids.sort(GPU_ORDER);
    if (expectedGpus > 0 && ids.size() != expectedGpus) {
      add(reasons, "expected_gpu_count_mismatch");
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, Double> gaps = new LinkedHashMap<>();
    Map<String, Double> energies = new LinkedHashMap<>();
    Map<String, List<String>> issues = new LinkedHashMap<>();
    for (String id : ids) {
      TreeMap<Double, List<Double>> byTime = new TreeMap<>(samplesByGpu.get(id));
      double[] times = new double[byTime.size()];
      double[] powers = new double[byTime.size()];
      int i = 0;
      for (Map.Entry<Double, List<Double>> e : byTime.entrySet()) {
        times[i] = e.getKey();
        powers[i] = mean(e.getValue());
        i++;
      }
      counts.put(id, times.length);
      List<String> deviceIssues = new ArrayList<>();
      if (times.length < 2) {
        deviceIssues.add("insufficient_power_samples");
        add(reasons, "insufficient_power_samples");
      } else if (times[0] > start || times[times.length - 1] < end) {
        deviceIssues.add("benchmark_window_not_bracketed");
        add(reasons, "benchmark_window_not_bracketed");
      } else {
        int left = bisectRight(times, start) - 1;
        int right = bisectLeft(times, end);
        double maxGapSeen = 0.0;
        for (int k = left; k < right && k + 1 < times.length; k++) {
          maxGapSeen = Math.max(maxGapSeen, times[k + 1] - times[k]);
        }
        gaps.put(id, maxGapSeen);
        if (maxGapSeen > maxGap) {
          deviceIssues.add("sampling_gap_exceeded");
          add(reasons, "sampling_gap_exceeded");
        }
        energies.put(id, integrateDevice(times, powers, start, end));
      }
      if (!deviceIssues.isEmpty()) {
        issues.put(id, deviceIssues);
      }
    }
    Optional<Double> total = Optional.empty();
    Optional<Double> avgTotal = Optional.empty();
    Optional<Double> avg = Optional.empty();
    if (energies.size() == ids.size()) {
      double sum = 0.0;
      for (double e : energies.values()) {
        sum += e;
      }
      total = Optional.of(sum);
      avgTotal = Optional.of(sum / (end - start));
      avg = Optional.of(avgTotal.get() / ids.size());
    }
    return new Integration(reasons, ids, counts, gaps, energies, issues, avg, avgTotal, total);
  }

  /** Trapezoidal energy (J) of one GPU over [start, end], power interpolated at the edges. */
  static double integrateDevice(double[] times, double[] powers, double start, double end) {
    List<double[]> clipped = new ArrayList<>();
    clipped.add(new double[] {start, interpolate(times, powers, start)});
    for (int i = 0; i < times.length; i++) {
      if (start < times[i] && times[i] < end) {
        clipped.add(new double[] {times[i], powers[i]});
      }
    }
    clipped.add(new double[] {end, interpolate(times, powers, end)});
    double energy = 0.0;
    for (int i = 0; i + 1 < clipped.size(); i++) {
      double[] l = clipped.get(i);
      double[] r = clipped.get(i + 1);
      energy += (r[0] - l[0]) * (l[1] + r[1]) / 2.0;
    }
    return energy;
  }

  static double interpolate(double[] times, double[] powers, double t) {
    int right = bisectLeft(times, t);
    if (right < times.length && Math.abs(times[right] - t) <= 1e-9) {
      return powers[right];
    }
    int left = right - 1;
    if (left < 0 || right >= times.length) {
      throw new IllegalArgumentException("timestamp is not bracketed");
    }
    double fraction = (t - times[left]) / (times[right] - times[left]);
    return powers[left] + fraction * (powers[right] - powers[left]);
  }

  private static int bisectLeft(double[] a, double x) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static int bisectRight(double[] a, double x) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (x < a[mid]) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  // Python statistics.mean over floats: exact sum rounded once, divided by n.
  private static double mean(List<Double> values) {
    if (values.size() == 1) {
      return values.get(0);
    }
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) {
      sum = sum.add(new BigDecimal(v));
    }
    return sum.divide(BigDecimal.valueOf(values.size()), java.math.MathContext.DECIMAL128)
        .doubleValue();
  }

  /** Numeric GPU ids first (by value), then other ids (by text). */
  static final Comparator<String> GPU_ORDER = (a, b) -> {
    boolean an = isDigits(a);
    boolean bn = isDigits(b);
    if (an && bn) {
      return new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b));
    }
    if (an != bn) {
      return an ? -1 : 1;
    }
    return a.compareTo(b);
  };

  private static boolean isDigits(String s) {
    return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static String cell(List<String> row, int index) {
    return index < row.size() ? row.get(index) : "";
  }

  private static String nextNonBlank(BufferedReader in) throws IOException {
    String line;
    while ((line = in.readLine()) != null) {
      if (!line.isEmpty()) {
        return line;
      }
    }
    return null;
  }

  static void add(List<String> reasons, String reason) {
    if (!reasons.contains(reason)) {
      reasons.add(reason);
    }
  }

  private static ObjectNode sidecar(
      String csvLabel, String rawLabel, Optional<BenchmarkWindow> window, Integration integration,
      int expectedGpus, boolean valid, List<String> reasons, Map<String, Double> metrics) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("schema_version", 1);
    o.put("power_valid", valid);
    ArrayNode r = o.putArray("reasons");
    reasons.forEach(r::add);
    o.put("telemetry_source", csvLabel);
    o.put("benchmark_result", rawLabel);
    if (window.isPresent()) {
      BenchmarkWindow w = window.get();
      ObjectNode bw = o.putObject("benchmark_window");
      bw.put("start_time_unix", w.startUnix());
      bw.put("end_time_unix", w.endUnix());
      bw.put("reported_duration_s", w.reportedDurationS());
      bw.put("integration_duration_s", w.integrationDurationS());
      bw.put("completed", w.completed());
      bw.put("total_input_tokens", w.totalInputTokens());
      bw.put("total_output_tokens", w.totalOutputTokens());
    } else {
      o.putNull("benchmark_window");
    }
    o.put("integration_method", METHOD);
    o.put("expected_gpu_count", expectedGpus);
    o.put("observed_gpu_count", integration.observedGpuIds().size());
    ArrayNode ids = o.putArray("observed_gpu_ids");
    integration.observedGpuIds().forEach(ids::add);
    ObjectNode counts = o.putObject("per_gpu_sample_counts");
    integration.sampleCounts().forEach(counts::put);
    ObjectNode gaps = o.putObject("per_gpu_max_sample_gap_s");
    integration.maxGaps().forEach(gaps::put);
    ObjectNode energies = o.putObject("per_gpu_energy_j");
    integration.energies().forEach(energies::put);
    ObjectNode issues = o.putObject("device_issues");
    integration.deviceIssues().forEach((id, list) -> {
      ArrayNode a = issues.putArray(id);
      list.forEach(a::add);
    });
    ObjectNode m = o.putObject("metrics");
    metrics.forEach((k, v) -> {
      if (Double.isFinite(v)) {
        m.put(k, PythonNumbers.round(v, 6));
      }
    });
    return o;
  }
}
