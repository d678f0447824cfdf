package io.infx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.infx.matrix.config.AgenticEntry;
import io.infx.matrix.config.AgenticScenario;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.MultiNodeEntry;
import io.infx.matrix.config.MultiNodeWorkers;
import io.infx.matrix.config.OffloadBackend;
import io.infx.matrix.config.SearchEntry;
import io.infx.matrix.config.SeqLen;
import io.infx.matrix.config.SingleNodeEntry;
import io.infx.matrix.config.WorkerShape;
import io.infx.testing.GeneratedConfig.Conc;
import io.infx.testing.GeneratedConfig.Entry;
import io.infx.testing.GeneratedConfig.KvOffload;
import io.infx.testing.GeneratedConfig.NodeLayout;
import io.infx.testing.GeneratedConfig.WorkerPool;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The YAML text of a generated config round-trips: what {@code Catalog.load} binds from
 * {@link GeneratedConfig#yaml()} (infx-matrix's own typed model) reads back as the same
 * {@link GeneratedConfig}, every field of every entry included.
 */
class RoundTripTest {

  /** The generated config that {@code Catalog.load} read, rebuilt from infx-matrix's typed model. */
  static GeneratedConfig readBack(String key, MasterConfig m) {
    NodeLayout layout = !m.multinode() ? NodeLayout.SINGLE_NODE
        : m.disagg() ? NodeLayout.DISAGGREGATED : NodeLayout.AGGREGATED;
    List<GeneratedConfig.Block> blocks = m.fixedSeqLen().stream().map((SeqLen b) -> new GeneratedConfig.Block(b.isl(),
        b.osl(), b.searchSpace().stream().map(e -> entry(e, Optional.empty())).toList())).toList();
    List<GeneratedConfig.AgenticBlock> agentic = m.agenticCoding().stream().map((AgenticScenario b) ->
        new GeneratedConfig.AgenticBlock(b.dramUtilization(), b.searchSpace().stream()
            .map(e -> entry(e, e.kvOffloading().map(kv -> new KvOffload(kv,
                e.kvOffloadBackend().map(OffloadBackend::name))))).toList())).toList();
    return new GeneratedConfig(key, m.image(), m.model(), m.modelPrefix(), m.precision(), m.framework(), m.runner(),
        layout, m.kvP2pTransfer(), blocks, agentic);
  }

  private static Entry entry(SearchEntry e, Optional<KvOffload> offload) {
    Conc conc = e.hasRange() ? Conc.range(e.concStart().get(), e.concEnd().get()) : Conc.list(e.concList().get());
    Optional<io.infx.matrix.config.SpecDecoding> spec = e.keys().contains("spec-decoding")
        ? Optional.of(e.specDecoding()) : Optional.empty();
    if (e instanceof SingleNodeEntry s) {
      return new GeneratedConfig.OnOneNode(s.tp(), optional(s.ep()), s.dpAttn(), dcp(s.keys(), s.dcpSize()), spec,
          offload, conc);
    }
    if (e instanceof AgenticEntry a && a.tp().isPresent()) {
      return new GeneratedConfig.OnOneNode(a.tp().get(), optional(a.ep()), a.dpAttn(), dcp(a.keys(), a.dcpSize()),
          spec, offload, conc);
    }
    MultiNodeWorkers w = e instanceof MultiNodeEntry n ? n : (AgenticEntry) e;
    if (w.worker().isPresent()) {
      return new GeneratedConfig.Aggregated(pool(w.worker().get()), w.numNodes().orElseThrow(), spec, offload, conc);
    }
    return new GeneratedConfig.Disaggregated(pool(w.prefill().orElseThrow()), pool(w.decode().orElseThrow()), spec,
        offload, conc);
  }

  private static WorkerPool pool(WorkerShape w) {
    return new WorkerPool(w.numWorker(), w.tp(), w.ep(), w.dpAttn(), w.dcpSize());
  }

  private static OptionalInt dcp(List<String> keys, int dcpSize) {
    return keys.contains("dcp-size") ? OptionalInt.of(dcpSize) : OptionalInt.empty();
  }

  private static OptionalInt optional(Optional<Integer> v) {
    return v.map(OptionalInt::of).orElse(OptionalInt.empty());
  }

  @Test
  void everyGeneratedConfigReadsBackAsItself() {
    qt().withFixedSeed(31).withExamples(200).forAll(InfxGenerators.masterConfigs(InfxGeneratorsTest.RUNNERS))
        .checkAssert(c -> assertThat(readBack(c.key(), c.catalog().get(c.key()).orElseThrow())).isEqualTo(c));
  }
}
