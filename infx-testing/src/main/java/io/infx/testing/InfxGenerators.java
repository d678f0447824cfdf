package io.infx.testing;

import static org.quicktheories.generators.SourceDSL.lists;

import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators of <em>valid</em> master configs for a team's own {@code runners.yaml}:
 * every value passes infx-matrix's validation (V1–V42) and expands with
 * {@link io.infx.matrix.Generator#fullSweep}. Shrinking is QuickTheories' own: each choice (runner
 * label, block and entry counts, tp, optional keys, concurrencies) shrinks towards the first label,
 * one block, one entry, the smallest tp, no optional keys and concurrency 1, so a failing property
 * reports a small config.
 *
 * <pre>{@code
 * RunnerInventory runners = RunnerInventory.load(Path.of("runners.yaml"));
 * qt().forAll(InfxGenerators.masterConfigs(runners))
 *     .checkAssert(c -> assertThat(c.catalog().size()).isEqualTo(1));
 * }</pre>
 *
 * <p>Scope: single-node {@code fixed-seq-len} configs (tp, ep, dp-attn, conc-list or conc range);
 * multi-node and AgentX configs are not generated yet. tp is a power of two no larger than the GPUs
 * per node of the chosen label's cluster(s) (8 when runners.yaml gives no cluster for the label).
 */
public final class InfxGenerators {

  private static final List<int[]> SEQ_LENS = List.of(new int[] {1024, 1024}, new int[] {8192, 1024},
      new int[] {1024, 8192});
  private static final List<String> FRAMEWORKS = List.of("vllm", "sglang", "trt");
  private static final List<String> PRECISIONS = List.of("fp8", "fp4", "bf16");
  private static final List<String> PREFIXES = List.of("dsr1", "llama", "gptoss", "qwen3.5");

  private InfxGenerators() {}

  /**
   * Valid single-node master configs whose runner is a label of {@code runners}.
   *
   * @throws IllegalArgumentException when {@code runners} has no labels
   */
  public static Gen<GeneratedConfig> masterConfigs(RunnerInventory runners) {
    Objects.requireNonNull(runners, "runners");
    List<String> labels = new ArrayList<>(runners.labels().keySet());
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("runners.yaml has no labels to generate configs for");
    }
    Gen<String> label = Generate.pick(labels);
    return label.flatMap(runner -> configsOn(runner, gpusPerNode(runners, runner)));
  }

  /** The smallest GPUs per node among the clusters behind {@code label} (8 when none is known). */
  static int gpusPerNode(RunnerInventory runners, String label) {
    TreeSet<Integer> gpus = new TreeSet<>();
    runners.clusterOf(label).ifPresent(c -> gpus.add(c.gpusPerNode()));
    for (String runner : runners.runnersOf(label)) {
      for (String l : runners.labelsOf(runner)) {
        runners.clusterOf(l).map(Cluster::gpusPerNode).ifPresent(gpus::add);
      }
    }
    return gpus.isEmpty() ? 8 : gpus.first();
  }

  private static Gen<GeneratedConfig> configsOn(String runner, int gpusPerNode) {
    List<Integer> tps = new ArrayList<>();
    for (int tp = 1; tp <= Math.max(1, gpusPerNode); tp *= 2) {
      tps.add(tp);
    }
    Gen<GeneratedConfig.Entry> entry = entries(tps);
    Gen<GeneratedConfig.Block> block = Generate.pick(SEQ_LENS).zip(lists().of(entry).ofSizeBetween(1, 3),
        (seq, space) -> new GeneratedConfig.Block(seq[0], seq[1], space));
    Gen<List<GeneratedConfig.Block>> blocks = lists().of(block).ofSizeBetween(1, 2);
    Gen<String[]> identity = Generate.pick(FRAMEWORKS).zip(Generate.pick(PRECISIONS), Generate.pick(PREFIXES),
        Generate.range(0, 99), (fw, prec, prefix, n) -> new String[] {fw, prec, prefix, Integer.toString(n)});
    return identity.zip(blocks, (id, bs) -> new GeneratedConfig(
        id[2] + "-" + id[1] + "-" + runner.replace("cluster:", "").replace(':', '-') + "-" + id[0],
        "example/" + id[0] + ":1." + id[3], "org/model-" + id[3], id[2], id[1], id[0], runner, bs));
  }

  private static Gen<GeneratedConfig.Entry> entries(List<Integer> tps) {
    Gen<Integer> tp = Generate.pick(tps);
    // 0 = absent (the shrink target), 1 = ep 1, 2 = ep = tp
    Gen<Integer> epChoice = Generate.range(0, 2);
    Gen<Integer> dpAttnChoice = Generate.range(0, 2);
    Gen<List<Integer>> concList = lists().of(Generate.range(1, 512)).ofSizeBetween(1, 4);
    Gen<int[]> concRange = Generate.range(1, 64).zip(Generate.range(0, 512), (start, extra) -> new int[] {start, start + extra});
    // first choice (0) = a conc-list, so shrinking prefers lists
    Gen<Object> conc = Generate.range(0, 1).flatMap(kind -> kind == 0 ? concList.map(l -> (Object) l)
        : concRange.map(r -> (Object) r));
    return tp.zip(epChoice, dpAttnChoice, conc, (t, ep, dp, c) -> {
      OptionalInt epValue = ep == 0 ? OptionalInt.empty() : OptionalInt.of(ep == 1 ? 1 : t);
      Optional<Boolean> dpAttn = dp == 0 ? Optional.empty() : Optional.of(dp == 2);
      if (c instanceof int[] r) {
        return new GeneratedConfig.Entry(t, epValue, dpAttn, List.of(), OptionalInt.of(r[0]), OptionalInt.of(r[1]));
      }
      @SuppressWarnings("unchecked")
      List<Integer> list = (List<Integer>) c;
      return new GeneratedConfig.Entry(t, epValue, dpAttn, list, OptionalInt.empty(), OptionalInt.empty());
    });
  }
}
