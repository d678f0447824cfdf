package io.infx.benchmarks.client;

import com.sun.management.OperatingSystemMXBean;
import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.tokenizer.HfTokenizer;
import io.infx.client.tokenizer.Tokenizer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * How long the random dataset takes to build long prompts with a Hugging Face
 * {@code tokenizer.json} (docs/performance.md, "Random prompts with a Hugging Face
 * tokenizer.json"; issue 12 item 8). Builds {@code --prompts} prompts of exactly
 * {@code --input-len} tokens (range ratio 1) with a fresh tokenizer per repetition — so the word
 * cache starts empty each time, as in a real run — and prints wall time, process CPU time, the
 * load average around the run and how many prompts came out at the requested length.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.infx.benchmarks.client.RandomPromptHarness \
 *     --tokenizer ../shared/realserver/tokenizer/tokenizer.json --prompts 192 --input-len 65536
 * </pre>
 */
public final class RandomPromptHarness {

  private RandomPromptHarness() {}

  public static void main(String[] args) {
    Path file = Path.of("../shared/realserver/tokenizer/tokenizer.json");
    int prompts = 192;
    int inputLen = 65536;
    int reps = 3;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--tokenizer" -> file = Path.of(args[i + 1]);
        case "--prompts" -> prompts = Integer.parseInt(args[i + 1]);
        case "--input-len" -> inputLen = Integer.parseInt(args[i + 1]);
        case "--reps" -> reps = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no tokenizer.json at " + file);
    }
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    System.out.printf(Locale.ROOT, "tokenizer %s, %d prompts x %d tokens, %d cores%n", file,
        prompts, inputLen, Runtime.getRuntime().availableProcessors());
    for (int r = 0; r < reps; r++) {
      double loadBefore = os.getSystemLoadAverage();
      long cpu0 = os.getProcessCpuTime();
      long t0 = System.nanoTime();
      List<Prompt> ps;
      try (Tokenizer t = HfTokenizer.load(file, file.toString())) {
        ps = RandomDataset.generate(t, inputLen, 1, 1.0, 0, prompts, r);
      }
      long t1 = System.nanoTime();
      long cpu1 = os.getProcessCpuTime();
      int target = inputLen;
      long atTarget = ps.stream().filter(p -> p.promptTokens() == target).count();
      System.out.printf(Locale.ROOT, "rep %d: %.2f s wall, %.2f s CPU, load average %.1f -> %.1f,"
              + " %d/%d prompts at %d tokens, %d chars per prompt%n", r, (t1 - t0) / 1e9,
          (cpu1 - cpu0) / 1e9, loadBefore, os.getSystemLoadAverage(), atTarget, ps.size(),
          inputLen, ps.get(0).text().length());
    }
  }
}
