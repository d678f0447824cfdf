package io.infx.benchmarks.store;

import com.fasterxml.jackson.core.JsonGenerator;
import io.infx.core.json.Json;
import io.infx.store.IngestOptions;
import io.infx.store.IngestReport;
import io.infx.store.LatestPoint;
import io.infx.store.PointQuery;
import io.infx.store.ResultStore;
import io.infx.store.StoreLocation;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Issue-15 performance harness for the results store's embedded default: ingest N aggregate rows
 * (RUNS runs of ROWS rows, each run a full sweep of the same curves on a later date) into a fresh
 * H2 file, then time the latest-points query for one model across all hardware.
 *
 * <pre>
 * java -Xmx1g -cp benchmarks/target/benchmarks.jar io.infx.benchmarks.store.StoreIngestHarness RUNS ROWS [DIR]
 * </pre>
 *
 * Rows are InferenceX v1 aggregate rows: 5 models × 9 GPUs × 2 frameworks × 2 precisions × 3 ISL/OSL
 * = 540 curves, concurrency 1, 2, 3, … as many as ROWS needs. Timings are wall clock around
 * {@code ResultStore.ingest} (read + map + one transaction + latest-view refresh) and around
 * {@code latestPoints} (warmed up 20 times, then 50 timed calls).
 */
public final class StoreIngestHarness {

  private static final String[] MODELS = {"dsr1", "gptoss120b", "llama70b", "qwen3.5", "kimik2.5"};
  private static final String[] GPUS = {"h100", "h200", "b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x"};
  private static final String[] FRAMEWORKS = {"sglang", "vllm"};
  private static final String[] PRECISIONS = {"fp8", "fp4"};
  private static final int[][] SEQ = {{1024, 1024}, {1024, 8192}, {8192, 1024}};

  private static final boolean verbose = Boolean.getBoolean("verbose");

  private StoreIngestHarness() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("infx-store-bench");
    System.out.printf(Locale.ROOT, "load average before: %.2f%n", load());
    List<Path> inputs = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      inputs.add(writeRun(dir.resolve("run" + r), r, rows));
    }
    Path file = dir.resolve("store.mv.db");
    Files.deleteIfExists(file);
    long total = 0;
    long t0 = System.nanoTime();
    try (ResultStore store = ResultStore.open(StoreLocation.embedded(file))) {
      long opened = System.nanoTime();
      long cpuOpened = cpu();
      System.out.printf(Locale.ROOT, "open + migrate: %.0f ms%n", (opened - t0) / 1e6);
      for (int r = 0; r < runs; r++) {
        long s = System.nanoTime();
        final long runStart = s;
        final long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        IngestReport rep = store.ingest(inputs.get(r), IngestOptions.defaults().runId("bench-" + r)
            .date(LocalDate.of(2026, 1, 1).plusDays(r)), line -> {
              if (verbose) {
                System.out.printf(Locale.ROOT, "  +%.0f ms (thread CPU %.0f ms) %s%n", (System.nanoTime() - runStart) / 1e6,
                    (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e6, line);
              }
            });
        total += rep.benchmarksInserted();
        System.out.printf(Locale.ROOT, "run %2d: %d rows in %.0f ms%n", r, rep.benchmarksInserted(), (System.nanoTime() - s) / 1e6);
      }
      long ingested = System.nanoTime();
      System.out.printf(Locale.ROOT, "INGEST %d rows in %d runs: %.1f s wall (%.0f rows/s), process CPU %.1f s%n", total, runs,
          (ingested - opened) / 1e9, total / ((ingested - opened) / 1e9), (cpu() - cpuOpened) / 1e9);

      List<Long> times = new ArrayList<>();
      List<Long> cpuTimes = new ArrayList<>();
      int n = 0;
      for (int i = 0; i < 70; i++) {
        long s = System.nanoTime();
        long c0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        List<LatestPoint> pts = store.latestPoints(PointQuery.model("dsr1"));
        long e = System.nanoTime();
        n = pts.size();
        if (i >= 20) {
          times.add(e - s);
          cpuTimes.add(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0);
        }
      }
      times.sort(Comparator.naturalOrder());
      cpuTimes.sort(Comparator.naturalOrder());
      System.out.printf(Locale.ROOT, "QUERY thread CPU per call: median %.1f ms%n", cpuTimes.get(cpuTimes.size() / 2) / 1e6);
      System.out.printf(Locale.ROOT, "QUERY latestPoints(dsr1, all hardware): %d points; median %.1f ms, p95 %.1f ms, max %.1f ms%n",
          n, times.get(times.size() / 2) / 1e6, times.get((int) (times.size() * 0.95)) / 1e6, times.get(times.size() - 1) / 1e6);
      List<Long> narrow = new ArrayList<>();
      for (int i = 0; i < 70; i++) {
        long s = System.nanoTime();
        store.latestPoints(PointQuery.model("dsr1").islOsl(1024, 1024).precision("fp8"));
        if (i >= 20) {
          narrow.add(System.nanoTime() - s);
        }
      }
      narrow.sort(Comparator.naturalOrder());
      System.out.printf(Locale.ROOT, "QUERY latestPoints(dsr1, 1k/1k, fp8): median %.1f ms%n", narrow.get(narrow.size() / 2) / 1e6);
    }
    System.out.printf(Locale.ROOT, "store file: %.1f MB; load average after: %.2f%n", Files.size(file) / 1e6, load());
    if (args.length <= 2) {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static Path writeRun(Path dir, int run, int rows) throws IOException {
    Path results = dir.resolve("results_bmk");
    Files.createDirectories(results);
    try (OutputStream out = Files.newOutputStream(results.resolve("agg_bmk.json"));
         JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.writeStartArray();
      int written = 0;
      for (int conc = 1; written < rows; conc++) {
        for (String model : MODELS) {
          for (String gpu : GPUS) {
            for (String fw : FRAMEWORKS) {
              for (String prec : PRECISIONS) {
                for (int[] seq : SEQ) {
                  if (written == rows) {
                    break;
                  }
                  double tput = 100.0 + conc * 3.5 + run;
                  g.writeStartObject();
                  g.writeStringField("hw", gpu + "-nv_0");
                  g.writeNumberField("conc", conc);
                  g.writeStringField("image", "registry/" + fw + ":v" + run);
                  g.writeStringField("model", model);
                  g.writeStringField("infmax_model_prefix", model);
                  g.writeStringField("framework", fw);
                  g.writeStringField("precision", prec);
                  g.writeStringField("spec_decoding", "none");
                  g.writeBooleanField("disagg", false);
                  g.writeNumberField("isl", seq[0]);
                  g.writeNumberField("osl", seq[1]);
                  g.writeBooleanField("is_multinode", false);
                  g.writeNumberField("tp", 8);
                  g.writeNumberField("ep", 1);
                  g.writeBooleanField("dp_attention", false);
                  g.writeNumberField("tput_per_gpu", tput);
                  g.writeNumberField("output_tput_per_gpu", tput / 2);
                  g.writeNumberField("input_tput_per_gpu", tput / 2);
                  for (String stat : new String[] {"mean", "median", "p90", "p99", "std"}) {
                    g.writeNumberField(stat + "_ttft", 0.1 + conc / 1000.0);
                    g.writeNumberField(stat + "_tpot", 0.01 + conc / 10000.0);
                    g.writeNumberField(stat + "_itl", 0.01 + conc / 10000.0);
                    g.writeNumberField(stat + "_e2el", 5 + conc / 100.0);
                    g.writeNumberField(stat + "_intvty", 100.0 / (1 + conc / 100.0));
                  }
                  g.writeEndObject();
                  written++;
                }
              }
            }
          }
        }
      }
      g.writeEndArray();
    }
    return dir;
  }
}
