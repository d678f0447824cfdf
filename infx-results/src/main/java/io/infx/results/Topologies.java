package io.infx.results;

/** Compact human-readable topology labels for tables. */
final class Topologies {

  private Topologies() {}

  /**
   * {@code tp8}, {@code tp8-ep8-dpa}, {@code tp4-pp2-dcp2-pcp2}; multi-node
   * {@code P2×tp4-ep4-dpa/D1×tp16-ep16-dpa}, or {@code 2×tp8-ep8-dpa agg} without decode GPUs.
   */
  static String label(Topology t) {
    if (t instanceof SingleNodeTopology s) {
      return worker(s.parallelism(), s.dpAttention());
    }
    MultiNodeTopology m = (MultiNodeTopology) t;
    String prefill = m.prefillNumWorkers() + "×" + worker(m.prefill(), m.prefillDpAttention());
    if (m.decodeGpus() == 0) {
      return prefill + " agg";
    }
    return "P" + prefill + "/D" + m.decodeNumWorkers() + "×" + worker(m.decode(), m.decodeDpAttention());
  }

  private static String worker(Parallelism p, String dpAttention) {
    StringBuilder sb = new StringBuilder("tp").append(p.tp());
    if (p.pp() != 1) {
      sb.append("-pp").append(p.pp());
    }
    if (p.dcpSize() != 1) {
      sb.append("-dcp").append(p.dcpSize());
    }
    if (p.pcpSize() != 1) {
      sb.append("-pcp").append(p.pcpSize());
    }
    if (p.ep() != 1) {
      sb.append("-ep").append(p.ep());
    }
    if (ReferenceEnvironment.isTrue(dpAttention)) {
      sb.append("-dpa");
    }
    return sb.toString();
  }
}
