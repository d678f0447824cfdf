package io.infx.matrix.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One master config: a model served by one framework on one runner label, with its scenarios and
 * search spaces. Its catalogue key (e.g. {@code dsr1-fp8-h200-sglang}) is held by the
 * {@link io.infx.matrix.Catalog}, not by the config.
 *
 * <p>The {@code multinode} flag selects the schema: {@link SingleNodeMaster} or
 * {@link MultiNodeMaster} (rule V5).
 */
public sealed interface MasterConfig permits SingleNodeMaster, MultiNodeMaster {

  /** Container image. */
  String image();

  /** Model id or path. */
  String model();

  /** Short model code ({@code dsr1}, {@code qwen3.5}, ...); feeds {@code exp-name}. */
  String modelPrefix();

  /** Precision, a free string ({@code fp4}, {@code fp8}, ...). */
  String precision();

  /** Serving framework, a free string ({@code sglang}, {@code vllm}, {@code dynamo-trt}, ...). */
  String framework();

  /** Runner label (a key of the runner file's {@code labels}; not checked, as in the reference). */
  String runner();

  boolean multinode();

  boolean disagg();

  /** The router, when declared for the whole config (V35: never also on entries). */
  Optional<Component> router();

  /** The KV transfer engine, when declared for the whole config (multi-node only). */
  Optional<String> kvP2pTransfer();

  List<? extends SeqLen> fixedSeqLen();

  List<AgenticScenario> agenticCoding();

  /** Keys as written, in document order; empty when built in code. */
  List<String> keys();

  /** Every search-space entry, fixed blocks first, then agentic blocks, in document order. */
  default List<SearchEntry> allEntries() {
    List<SearchEntry> out = new ArrayList<>();
    for (SeqLen s : fixedSeqLen()) {
      out.addAll(s.searchSpace());
    }
    for (AgenticScenario a : agenticCoding()) {
      out.addAll(a.searchSpace());
    }
    return out;
  }
}
