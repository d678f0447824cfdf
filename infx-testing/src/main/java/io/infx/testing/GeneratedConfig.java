package io.infx.testing;

import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.ConfigRule;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One generated single-node fixed-sequence master config: its catalogue key, identity and search
 * spaces, as typed values (what a property asserts on, and what a shrunk counterexample prints) and
 * as the YAML text a user would write ({@link #yaml()}), which infx-matrix loads with
 * {@code file:line:column} locations like any master file.
 *
 * @param key catalogue key, e.g. {@code dsr1-fp8-h100-vllm}
 * @param runner a label of the runners.yaml the generator was given
 * @param blocks the {@code fixed-seq-len} blocks, at least one
 */
public record GeneratedConfig(String key, String image, String model, String modelPrefix, String precision,
    String framework, String runner, List<Block> blocks) {

  public GeneratedConfig {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(runner, "runner");
    blocks = List.copyOf(blocks);
  }

  /**
   * One {@code fixed-seq-len} block.
   *
   * @param isl input sequence length (tokens)
   * @param osl output sequence length (tokens)
   */
  public record Block(int isl, int osl, List<Entry> searchSpace) {
    public Block {
      searchSpace = List.copyOf(searchSpace);
    }
  }

  /**
   * One search-space entry: tensor parallelism, optional expert parallelism and DP-attention, and
   * either a concurrency list or a {@code conc-start..conc-end} range (doubling steps).
   */
  public record Entry(int tp, OptionalInt ep, Optional<Boolean> dpAttn, List<Integer> concList,
      OptionalInt concStart, OptionalInt concEnd) {
    public Entry {
      concList = List.copyOf(concList);
    }

    /** The largest concurrency this entry asks for. */
    public int maxConc() {
      return concEnd.isPresent() ? concEnd.getAsInt()
          : concList.stream().mapToInt(Integer::intValue).max().orElse(0);
    }
  }

  /** Every search-space entry, block by block. */
  public List<Entry> entries() {
    return blocks.stream().flatMap(b -> b.searchSpace().stream()).toList();
  }

  /** The config as a master file's text: one top-level key, block style, two-space indents. */
  public String yaml() {
    StringBuilder sb = new StringBuilder();
    sb.append(key).append(":\n");
    sb.append("  image: \"").append(image).append("\"\n");
    sb.append("  model: ").append(model).append('\n');
    sb.append("  model-prefix: ").append(modelPrefix).append('\n');
    sb.append("  precision: ").append(precision).append('\n');
    sb.append("  framework: ").append(framework).append('\n');
    sb.append("  runner: ").append(runner).append('\n');
    sb.append("  multinode: false\n");
    sb.append("  scenarios:\n    fixed-seq-len:\n");
    for (Block b : blocks) {
      sb.append("    - isl: ").append(b.isl()).append('\n');
      sb.append("      osl: ").append(b.osl()).append('\n');
      sb.append("      search-space:\n");
      for (Entry e : b.searchSpace()) {
        sb.append("      - tp: ").append(e.tp()).append('\n');
        e.ep().ifPresent(ep -> sb.append("        ep: ").append(ep).append('\n'));
        e.dpAttn().ifPresent(d -> sb.append("        dp-attn: ").append(d).append('\n'));
        if (e.concStart().isPresent()) {
          sb.append("        conc-start: ").append(e.concStart().getAsInt()).append('\n');
          sb.append("        conc-end: ").append(e.concEnd().getAsInt()).append('\n');
        } else {
          sb.append("        conc-list: ").append(e.concList()).append('\n');
        }
      }
    }
    return sb.toString();
  }

  /** The YAML text as a master file named {@code label} (e.g. {@code acme.yaml}). */
  public Source source(String label) {
    return Source.text(label, yaml());
  }

  /** Loads and validates {@link #yaml()} as {@code <key>.yaml}, as {@code Catalog.load} does. */
  public Catalog catalog() {
    return catalog(List.of());
  }

  /** As {@link #catalog()}, with a team's own rules run beside the built-in ones. */
  public Catalog catalog(List<? extends ConfigRule> rules) {
    return Catalog.load(List.of(source(key + ".yaml")), rules);
  }

  /** Compact: key, runner and every block's entries, e.g. {@code ...[8192/1024: tp=4 ep=4 conc=[1, 8]]}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("GeneratedConfig[").append(key).append(" on ").append(runner);
    for (Block b : blocks) {
      sb.append(", ").append(b.isl()).append('/').append(b.osl()).append(": [");
      for (int i = 0; i < b.searchSpace().size(); i++) {
        Entry e = b.searchSpace().get(i);
        sb.append(i > 0 ? "; " : "").append("tp=").append(e.tp());
        e.ep().ifPresent(ep -> sb.append(" ep=").append(ep));
        e.dpAttn().ifPresent(d -> sb.append(" dp-attn=").append(d));
        sb.append(" conc=").append(e.concStart().isPresent()
            ? e.concStart().getAsInt() + ".." + e.concEnd().getAsInt() : e.concList().toString());
      }
      sb.append(']');
    }
    return sb.append(']').toString();
  }
}
