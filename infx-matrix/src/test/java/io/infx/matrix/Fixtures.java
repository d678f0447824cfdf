package io.infx.matrix;

import io.infx.core.tree.Source;
import io.infx.matrix.runners.RunnerInventory;
import java.util.List;

/** Small inputs shared by the matrix tests (the spec's §10 fixtures, in the clusters layout). */
final class Fixtures {

  private Fixtures() {}

  static final String RUNNERS = """
      labels:
        h200: [h200-cw_00, h200-cw_01, h200-nb_0]
        b200-multinode: [b200-slurm_7, b200-slurm_8]
        cluster:h200-cw: [h200-cw_00, h200-cw_01]
        cluster:h200-nb: [h200-nb_0]
        cluster:b200-slurm: [b200-slurm_7, b200-slurm_8]
        cluster:b200-nscale: [b200-nscale-slurm_0, b200-nscale-slurm_1]
        cluster:gb200-nv: [gb200-nv_0]
        cluster:mi355x-amds: [mi355x-amds_0]
      clusters:
        h200-cw: &c
          gpus-per-node: 8
          arch: x86_64
          scheduler: slurm
          slurm: {partition: main, exclusive: false, volumes: {hf: {path: /data/hf}}}
        h200-nb: *c
        b200-slurm: *c
        b200-nscale:
          gpus-per-node: 8
          available-cpu-dram-mib: 2_063_920
          arch: x86_64
          scheduler: slurm
          slurm: {partition: main, exclusive: false}
        gb200-nv:
          gpus-per-node: 4
          available-cpu-dram-mib: 860_160
          arch: aarch64
          scheduler: slurm
          slurm: {partition: batch, exclusive: false}
        mi355x-amds:
          gpus-per-node: 8
          available-cpu-dram-mib: 3_095_781
          arch: x86_64
          scheduler: slurm
          slurm: {partition: compute, exclusive: true}
      """;

  /** A single-node master {@code ex-sn} with one block of the given ISL and the given entries. */
  static String singleNode(int isl, String... entries) {
    StringBuilder sb = new StringBuilder("""
        ex-sn:
          image: "img:1"
          model: org/model
          model-prefix: mdl
          precision: fp8
          framework: sglang
          runner: h200
          multinode: false
          scenarios:
            fixed-seq-len:
        """);
    sb.append("    - isl: ").append(isl).append("\n      osl: 1024\n      search-space:\n");
    for (String e : entries) {
      sb.append("      - ").append(e).append('\n');
    }
    return sb.toString();
  }

  /** The spec's multi-node fixture {@code ex-mn}: two 8k1k entries with identical workers. */
  static final String MULTI_NODE = """
      ex-mn:
        image: "img:2"
        model: org/model
        model-prefix: mdl
        precision: fp4
        framework: dynamo-trt
        runner: b200-multinode
        multinode: true
        disagg: true
        kv-p2p-transfer: nixl
        scenarios:
          fixed-seq-len:
          - isl: 8192
            osl: 1024
            search-space:
            - conc-list: [4, 64]
              prefill: {num-worker: 1, tp: 4, ep: 4, dp-attn: true}
              decode: {num-worker: 1, tp: 8, ep: 8, dp-attn: true}
            - conc-list: [128, 8]
              prefill: {num-worker: 1, tp: 4, ep: 4, dp-attn: true}
              decode: {num-worker: 1, tp: 8, ep: 8, dp-attn: true}
      """;

  /** The spec's single-node agentic fixture {@code ex-ag}. */
  static final String AGENTIC = """
      ex-ag:
        image: "img:3"
        model: org/model
        model-prefix: mdl
        precision: fp4
        framework: vllm
        runner: cluster:b200-nscale
        multinode: false
        scenarios:
          agentic-coding:
          - dram-utilization: 0.8
            search-space:
            - {tp: 4, kv-offloading: dram, kv-offload-backend: {name: lmcache, version: "0.3.9"}, conc-list: [2, 32]}
            - {tp: 8, kv-offloading: none, spec-decoding: mtp, conc-list: [16]}
      """;

  static Catalog catalog(String... yamls) {
    return Catalog.load(List.of(Source.text("m.yaml", String.join("", yamls))));
  }

  static RunnerInventory runners() {
    return RunnerInventory.load(Source.text("runners.yaml", RUNNERS));
  }
}
