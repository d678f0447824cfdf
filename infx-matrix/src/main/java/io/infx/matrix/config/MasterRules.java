package io.infx.matrix.config;

import io.infx.core.bind.SelfChecking;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Cross-entry rules of a master config: V20, V35–V40 (reference wording). */
final class MasterRules {

  private MasterRules() {}

  /** An entry with its pointer relative to the master. */
  private record Located(String pointer, SearchEntry entry) {}

  static void check(MasterConfig m, SelfChecking.Checks checks) {
    List<Located> entries = located(m);
    if (!m.agenticCoding().isEmpty() && !m.runner().startsWith("cluster:")) {
      checks.fail("V20.agentic-cluster-runner", "runner",
          "Agentic master configs must use a 'cluster:<name>' runner so every point runs on one exact "
              + "hardware fleet.");
    }
    // V35: one scope per component
    if (m.router().isPresent()) {
      for (Located l : entries) {
        if (l.entry().router().isPresent()) {
          checks.fail("V35.component-scope", l.pointer() + "/router",
              "router must be declared either at the top level or in search-space entries, not both");
          break;
        }
      }
    }
    if (m.kvP2pTransfer().isPresent()) {
      for (Located l : entries) {
        if (l.entry().kvP2pTransfer().isPresent()) {
          checks.fail("V35.component-scope", l.pointer() + "/kv-p2p-transfer",
              "kv-p2p-transfer must be declared either at the top level or in search-space entries, not both");
          break;
        }
      }
    }
    if (!m.multinode()) {
      for (Located l : entries) {
        if (l.entry().kvP2pTransfer().isPresent()) {
          checks.fail("V36.transfer-multinode-only", l.pointer() + "/kv-p2p-transfer",
              "kv-p2p-transfer is only valid when multinode=true");
          break;
        }
      }
    }
    if (m.disagg() && m.kvP2pTransfer().isEmpty()) {
      Optional<Located> missing = entries.stream().filter(l -> l.entry().kvP2pTransfer().isEmpty()).findFirst();
      if (entries.isEmpty() || missing.isPresent()) {
        checks.fail("V37.disagg-transfer", missing.map(Located::pointer).orElse(""),
            "disagg=true requires kv-p2p-transfer at the top level or in every search-space entry");
      }
    }
    for (Located l : entries) {
      entryScope(m, l, checks);
    }
  }

  private static void entryScope(MasterConfig m, Located l, SelfChecking.Checks checks) {
    if (!(l.entry() instanceof MultiNodeWorkers t)) {
      return; // single-node fixed entries have no multi-node fields at all
    }
    if (!m.multinode()) {
      if (t.worker().isPresent() || t.prefill().isPresent() || t.decode().isPresent() || t.numNodes().isPresent()) {
        checks.fail("V38.single-node-scope", l.pointer(),
            "Single-node search-space entries must specify tp topology and cannot declare worker, "
                + "prefill, decode, or num-nodes");
      }
      return;
    }
    if (m.disagg()) {
      if (t.worker().isPresent() || t.numNodes().isPresent()) {
        checks.fail("V39.disagg-scope", l.pointer(),
            "disagg=true requires prefill and decode and rejects worker and num-nodes");
      } else if (t.prefill().isEmpty() || t.decode().isEmpty()) {
        checks.fail("V39.disagg-scope", l.pointer(), "disagg=true requires prefill and decode");
      }
      return;
    }
    if (t.worker().isEmpty() || t.prefill().isPresent() || t.decode().isPresent()) {
      checks.fail("V40.aggregate-scope", l.pointer(),
          "disagg=false requires one worker and rejects prefill and decode");
    } else if (t.numNodes().isEmpty()) {
      checks.fail("V40.aggregate-scope", l.pointer(),
          "disagg=false requires num-nodes in every search-space entry");
    }
  }

  private static List<Located> located(MasterConfig m) {
    List<Located> out = new ArrayList<>();
    for (int i = 0; i < m.fixedSeqLen().size(); i++) {
      List<? extends SearchEntry> space = m.fixedSeqLen().get(i).searchSpace();
      for (int j = 0; j < space.size(); j++) {
        out.add(new Located("scenarios/fixed-seq-len/" + i + "/search-space/" + j, space.get(j)));
      }
    }
    for (int i = 0; i < m.agenticCoding().size(); i++) {
      List<AgenticEntry> space = m.agenticCoding().get(i).searchSpace();
      for (int j = 0; j < space.size(); j++) {
        out.add(new Located("scenarios/agentic-coding/" + i + "/search-space/" + j, space.get(j)));
      }
    }
    return out;
  }
}
