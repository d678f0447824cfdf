package io.infx.store.mapping;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GPU telemetry CSV of a {@code gpu_metrics_<suffix>} artifact, read as InferenceX-app's ingest
 * reads it ({@code packages/db/src/etl/gpu-metrics-csv.ts}): the vendor from the header
 * ({@code nvidia-smi --query-gpu … --format=csv} or {@code amd-smi metric --csv}), one sample per
 * (GPU, row), {@code N/A} and unparseable cells as null, rows without a power reading dropped, and a
 * per-GPU digest of every sampled metric.
 *
 * <p>infx additions: the cumulative energy counter column {@code energy.total [J]} that infx's
 * DCGM scraper writes ({@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} in joules), and P75/P90 in the
 * digest. Pure: no I/O. (The power stage of {@code infx-results} reads the same files with the
 * producer's own rules, {@code utils/aggregate_power.py}; the two readers follow two different
 * references on purpose.)
 */
public final class GpuMetricsCsv {

  private GpuMetricsCsv() {}

  /** Sample columns, in the store's column order; {@code metric} names in the digest. */
  public enum Field {
    POWER_W("power_w"), TEMPERATURE_C("temperature_c"), SM_CLOCK_MHZ("sm_clock_mhz"),
    MEM_CLOCK_MHZ("mem_clock_mhz"), GPU_UTIL_PCT("gpu_util_pct"), MEM_UTIL_PCT("mem_util_pct"),
    EDGE_TEMP_C("edge_temp_c"), MEM_TEMP_C("mem_temp_c"), GFX_VOLTAGE_MV("gfx_voltage_mv"),
    SOC_VOLTAGE_MV("soc_voltage_mv"), MEM_VOLTAGE_MV("mem_voltage_mv"), FCLK_MHZ("fclk_mhz"),
    SOCCLK_MHZ("socclk_mhz"), MM_ACTIVITY_PCT("mm_activity_pct"), ENERGY_J("energy_j");

    private final String column;

    Field(String column) {
      this.column = column;
    }

    /** The store column (and digest metric) name, e.g. {@code power_w}. */
    public String column() {
      return column;
    }
  }

  /**
   * One GPU's reading at one instant.
   *
   * @param timestampMs epoch milliseconds (UTC)
   * @param gpuIndex the GPU's index as the collector numbers it
   * @param values every field, null when not reported ({@link Field#POWER_W} is never null)
   */
  public record Sample(long timestampMs, int gpuIndex, Map<Field, Double> values) {
    public Double get(Field f) {
      return values.get(f);
    }
  }

  /** A parsed file: {@code nvidia} or {@code amd}, samples in file order. */
  public record Parsed(String vendor, List<Sample> samples) {}

  /**
   * Per-GPU, per-metric digest over every non-null sample (population standard deviation;
   * percentiles linearly interpolated between closest ranks, as numpy's default and the app).
   */
  public record Stat(int gpuIndex, Field metric, int count, double min, double max, double mean,
      double median, double p75, double p90, double p95, double p99, double stddev) {}

  /** Window and cadence facts of a series: samples, GPUs, first/last instant, median gap (s). */
  public record SeriesSummary(int sampleCount, int gpuCount, long startedAtMs, long endedAtMs,
      OptionalDouble sampleIntervalS) {}

  /** CSV cells, quotes respected, each trimmed. */
  public static List<String> split(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        out.add(cur.toString().trim());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString().trim());
    return out;
  }

  /** {@code N/A}, {@code [N/A]}, empty and unparseable cells are null; a unit suffix is ignored. */
  public static Double cell(String value) {
    if (value == null) {
      return null;
    }
    String t = value.trim();
    if (t.isEmpty() || t.equals("N/A") || t.equals("[N/A]")) {
      return null;
    }
    Matcher m = LEADING_NUMBER.matcher(t);
    if (!m.lookingAt()) {
      return null;
    }
    try {
      double d = Double.parseDouble(m.group());
      return Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  // parseFloat's prefix rule: sign, digits, fraction, exponent
  private static final Pattern LEADING_NUMBER =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  private static final Pattern NVIDIA_TS = Pattern.compile(
      "^(\\d{4})/(\\d{2})/(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,3}))?$");

  /**
   * nvidia-smi's {@code YYYY/MM/DD HH:MM:SS.mmm} in the collector's zone, {@code offsetMinutes}
   * east of UTC (the context sidecar says which; UTC when it does not).
   */
  public static Optional<Long> nvidiaTimestamp(String raw, int offsetMinutes) {
    Matcher m = NVIDIA_TS.matcher(raw.trim());
    if (!m.matches()) {
      return Optional.empty();
    }
    int millis = m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "00").substring(0, 3));
    try {
      LocalDateTime t = LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
          Integer.parseInt(m.group(6)), millis * 1_000_000);
      return Optional.of(t.toInstant(ZoneOffset.UTC).toEpochMilli() - offsetMinutes * 60_000L);
    } catch (java.time.DateTimeException e) {
      return Optional.empty();
    }
  }

  /** amd-smi's epoch seconds (or milliseconds), else an ISO instant. */
  public static Optional<Long> amdTimestamp(String raw) {
    String t = raw.trim();
    if (t.matches("\\d+(\\.\\d+)?")) {
      double d = Double.parseDouble(t);
      if (d > 1e12) {
        return Optional.of(Math.round(d));
      }
      if (d > 1e9) {
        return Optional.of(Math.round(d * 1000));
      }
      return Optional.empty();
    }
    try {
      return Optional.of(java.time.OffsetDateTime.parse(t).toInstant().toEpochMilli());
    } catch (java.time.format.DateTimeParseException e) {
      try {
        return Optional.of(java.time.Instant.parse(t).toEpochMilli());
      } catch (java.time.format.DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }

  /**
   * The collector's clock offset in minutes east of UTC from {@code gpu_metrics_context.json}'s
   * {@code timestamp_timezone} ({@code ±HH:MM} or {@code ±HHMM}); anything else is UTC.
   */
  public static int utcOffsetMinutes(com.fasterxml.jackson.databind.JsonNode context) {
    if (context == null || !context.path("timestamp_timezone").isTextual()) {
      return 0;
    }
    Matcher m = Pattern.compile("^([+-])(\\d{2}):?(\\d{2})$").matcher(context.get("timestamp_timezone").asText().trim());
    if (!m.matches()) {
      return 0;
    }
    int minutes = Integer.parseInt(m.group(2)) * 60 + Integer.parseInt(m.group(3));
    return m.group(1).equals("-") ? -minutes : minutes;
  }

  /** Parses one file, detecting the vendor from its header; empty when neither vendor's header. */
  public static Optional<Parsed> parse(String text, int nvidiaOffsetMinutes) {
    List<String> lines = new ArrayList<>();
    for (String l : text.split("\n", -1)) {
      String line = l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
      if (!line.isBlank()) {
        lines.add(line);
      }
    }
    if (lines.size() <= 1) {
      return Optional.empty();
    }
    String header = lines.get(0).toLowerCase(Locale.ROOT);
    if (header.contains("socket_power") || header.contains("gfx_activity")) {
      return Optional.of(new Parsed("amd", parseAmd(lines)));
    }
    if (header.contains("power.draw")) {
      return Optional.of(new Parsed("nvidia", parseNvidia(lines, nvidiaOffsetMinutes)));
    }
    return Optional.empty();
  }

  private static List<Sample> parseNvidia(List<String> lines, int offset) {
    List<String> header = new ArrayList<>();
    for (String h : split(lines.get(0))) {
      header.add(h.toLowerCase(Locale.ROOT).replaceAll("\\s*\\[.*]$", ""));
    }
    int ts = header.indexOf("timestamp");
    int index = header.indexOf("index");
    int power = header.indexOf("power.draw");
    if (ts < 0 || index < 0 || power < 0) {
      return List.of();
    }
    Map<Field, Integer> cols = new LinkedHashMap<>();
    cols.put(Field.TEMPERATURE_C, header.indexOf("temperature.gpu"));
    cols.put(Field.SM_CLOCK_MHZ, header.indexOf("clocks.current.sm"));
    cols.put(Field.MEM_CLOCK_MHZ, header.indexOf("clocks.current.memory"));
    cols.put(Field.GPU_UTIL_PCT, header.indexOf("utilization.gpu"));
    cols.put(Field.MEM_UTIL_PCT, header.indexOf("utilization.memory"));
    cols.put(Field.ENERGY_J, header.indexOf("energy.total"));
    List<Sample> out = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      List<String> row = split(lines.get(i));
      if (row.size() <= Math.max(ts, Math.max(index, power))) {
        continue;
      }
      Optional<Long> t = nvidiaTimestamp(row.get(ts), offset);
      Integer gpu = gpuIndex(row.get(index));
      Double p = cell(row.get(power));
      if (t.isEmpty() || gpu == null || p == null) {
        continue;
      }
      Map<Field, Double> v = new java.util.EnumMap<>(Field.class);
      v.put(Field.POWER_W, p);
      cols.forEach((f, c) -> {
        if (c >= 0 && c < row.size()) {
          Double d = cell(row.get(c));
          if (d != null) {
            v.put(f, d);
          }
        }
      });
      out.add(new Sample(t.get(), gpu, v));
    }
    return out;
  }

  private static List<Sample> parseAmd(List<String> lines) {
    Map<String, Integer> col = new HashMap<>();
    List<String> header = split(lines.get(0));
    for (int i = 0; i < header.size(); i++) {
      col.putIfAbsent(header.get(i).toLowerCase(Locale.ROOT), i);
    }
    int ts = col.getOrDefault("timestamp", -1);
    int gpuCol = col.getOrDefault("gpu", -1);
    int power = col.getOrDefault("socket_power", -1);
    if (ts < 0 || gpuCol < 0 || power < 0) {
      return List.of();
    }
    List<Sample> out = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      List<String> row = split(lines.get(i));
      if (row.size() <= Math.max(ts, Math.max(gpuCol, power))) {
        continue;
      }
      Optional<Long> t = amdTimestamp(row.get(ts));
      Integer gpu = gpuIndex(row.get(gpuCol));
      Double p = cell(row.get(power));
      if (t.isEmpty() || gpu == null || p == null) {
        continue;
      }
      Map<Field, Double> v = new java.util.EnumMap<>(Field.class);
      v.put(Field.POWER_W, p);
      Double hotspot = amdCell(row, col, "hotspot");
      Double edge = amdCell(row, col, "edge");
      putIfPresent(v, Field.TEMPERATURE_C, hotspot != null ? hotspot : edge);
      putIfPresent(v, Field.EDGE_TEMP_C, edge);
      putIfPresent(v, Field.MEM_TEMP_C, amdCell(row, col, "mem"));
      putIfPresent(v, Field.SM_CLOCK_MHZ, amdCell(row, col, "gfx_0_clk"));
      putIfPresent(v, Field.MEM_CLOCK_MHZ, amdCell(row, col, "mem_0_clk"));
      putIfPresent(v, Field.GPU_UTIL_PCT, amdCell(row, col, "gfx_activity"));
      putIfPresent(v, Field.MEM_UTIL_PCT, amdCell(row, col, "umc_activity"));
      putIfPresent(v, Field.GFX_VOLTAGE_MV, amdCell(row, col, "gfx_voltage"));
      putIfPresent(v, Field.SOC_VOLTAGE_MV, amdCell(row, col, "soc_voltage"));
      putIfPresent(v, Field.MEM_VOLTAGE_MV, amdCell(row, col, "mem_voltage"));
      putIfPresent(v, Field.FCLK_MHZ, amdCell(row, col, "fclk_0_clk"));
      putIfPresent(v, Field.SOCCLK_MHZ, amdCell(row, col, "socclk_0_clk"));
      putIfPresent(v, Field.MM_ACTIVITY_PCT, amdCell(row, col, "mm_activity"));
      out.add(new Sample(t.get(), gpu, v));
    }
    return out;
  }

  private static Double amdCell(List<String> row, Map<String, Integer> col, String name) {
    Integer c = col.get(name);
    return c == null || c >= row.size() ? null : cell(row.get(c));
  }

  private static void putIfPresent(Map<Field, Double> v, Field f, Double d) {
    if (d != null) {
      v.put(f, d);
    }
  }

  // parseInt's rule: leading integer, non-negative
  private static Integer gpuIndex(String raw) {
    Matcher m = Pattern.compile("^\\s*([+-]?\\d+)").matcher(raw);
    if (!m.find()) {
      return null;
    }
    try {
      int i = Integer.parseInt(m.group(1));
      return i < 0 ? null : i;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Drops repeated (GPU, instant) samples, keeping the first: a monitor flushes its last sample
   * again when it stops, and the store keys samples by (series, GPU, instant).
   */
  public static List<Sample> distinct(List<Sample> samples) {
    Map<List<Long>, Sample> seen = new LinkedHashMap<>();
    for (Sample s : samples) {
      seen.putIfAbsent(List.of((long) s.gpuIndex(), s.timestampMs()), s);
    }
    return new ArrayList<>(seen.values());
  }

  /** The per-GPU digest, ordered by GPU then metric name. */
  public static List<Stat> stats(List<Sample> samples) {
    Map<List<Object>, List<Double>> groups = new LinkedHashMap<>();
    for (Sample s : samples) {
      s.values().forEach((f, v) -> groups.computeIfAbsent(List.of(s.gpuIndex(), f), k -> new ArrayList<>()).add(v));
    }
    List<Stat> out = new ArrayList<>();
    groups.forEach((k, values) -> {
      double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      double mean = 0;
      for (double v : sorted) {
        mean += v;
      }
      mean /= sorted.length;
      double var = 0;
      for (double v : sorted) {
        var += (v - mean) * (v - mean);
      }
      var /= sorted.length;
      out.add(new Stat((Integer) k.get(0), (Field) k.get(1), sorted.length, sorted[0], sorted[sorted.length - 1],
          mean, percentile(sorted, 50), percentile(sorted, 75), percentile(sorted, 90), percentile(sorted, 95),
          percentile(sorted, 99), Math.sqrt(var)));
    });
    out.sort(java.util.Comparator.comparingInt(Stat::gpuIndex).thenComparing(s -> s.metric().column()));
    return out;
  }

  /** Linear interpolation between closest ranks of a sorted array (numpy's default). */
  public static double percentile(double[] sorted, double p) {
    double idx = p / 100.0 * (sorted.length - 1);
    int lo = (int) Math.floor(idx);
    int hi = (int) Math.ceil(idx);
    if (lo == hi) {
      return sorted[lo];
    }
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (idx - lo);
  }

  /** Window and cadence of a series; empty without samples. */
  public static Optional<SeriesSummary> summarize(List<Sample> samples) {
    if (samples.isEmpty()) {
      return Optional.empty();
    }
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    Map<Integer, List<Long>> byGpu = new LinkedHashMap<>();
    for (Sample s : samples) {
      start = Math.min(start, s.timestampMs());
      end = Math.max(end, s.timestampMs());
      byGpu.computeIfAbsent(s.gpuIndex(), g -> new ArrayList<>()).add(s.timestampMs());
    }
    List<Long> gaps = new ArrayList<>();
    for (List<Long> ts : byGpu.values()) {
      List<Long> sorted = ts.stream().sorted().toList();
      for (int i = 1; i < sorted.size(); i++) {
        long gap = sorted.get(i) - sorted.get(i - 1);
        if (gap > 0) {
          gaps.add(gap);
        }
      }
    }
    OptionalDouble interval = gaps.isEmpty() ? OptionalDouble.empty()
        : OptionalDouble.of(percentile(gaps.stream().mapToDouble(Long::doubleValue).sorted().toArray(), 50) / 1000.0);
    return Optional.of(new SeriesSummary(samples.size(), byGpu.size(), start, end, interval));
  }

  /** {@code gpu,total_energy_consumption} (the reference's energy snapshot) → GPU id → joules. */
  public static Map<String, Double> energySnapshot(String text) {
    Map<String, Double> out = new LinkedHashMap<>();
    String[] lines = text.split("\n");
    if (lines.length <= 1) {
      return out;
    }
    List<String> header = split(lines[0]);
    int gpu = header.indexOf("gpu");
    int energy = header.indexOf("total_energy_consumption");
    if (gpu < 0 || energy < 0) {
      gpu = 0;
      energy = 1;
    }
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      List<String> row = split(lines[i]);
      if (row.size() > Math.max(gpu, energy) && !row.get(gpu).isEmpty()) {
        Double d = cell(row.get(energy));
        if (d != null) {
          out.put(row.get(gpu), d);
        }
      }
    }
    return out;
  }
}
