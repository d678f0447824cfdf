package io.infx.fleet;

import io.infx.core.launch.LaunchVariable;
import io.infx.matrix.MatrixRow;
import io.infx.results.ComponentMetadata;
import io.infx.results.MultiNodeTopology;
import io.infx.results.Parallelism;
import io.infx.results.RunIdentity;
import io.infx.results.SingleNodeTopology;
import io.infx.results.Topology;
import java.util.Objects;

/**
 * Typed bridge from a matrix row to the {@link RunIdentity} its aggregate row publishes, without
 * the launch environment in between. The reference builds the identity from the variables its
 * workflow templates export ({@code benchmark-tmpl.yml}, {@code benchmark-multinode-tmpl.yml}) and
 * {@code utils/process_result.py} reads back; this class reads the same row fields the projection
 * ({@link EnvProjector}) writes, so {@code RunIdentities.of(row)} equals {@code
 * RunIdentity.fromEnvironment(EnvProjector.standard().project(row, runner, ctx).values())} for
 * every row (a test checks it over the matrix conformance corpus, errors included).
 *
 * <p>Which row field gives which identity field: {@code hw} ← {@code runner} (the runner label,
 * {@code RUNNER_TYPE}; the concrete runner a row lands on only names the result file), {@code image,
 * model-prefix, framework, precision, spec-decoding} verbatim, {@code recipe-fingerprint} or
 * {@code ""}, ISL/OSL in tokens (0 for AgentX rows), {@code router} as {@code ROUTER_METADATA}
 * (the reference's component-metadata rule, {@link ComponentMetadata#parse}: both {@code name} and
 * {@code version}), single-node: never disaggregated, no KV transfer, topology {@code tp, pp,
 * dcp-size, pcp-size, ep, dp-attn}; multi-node: {@code disagg}, {@code kv-p2p-transfer}, the
 * prefill/decode workers and their hardware, with the physical GPU counts of the point (the launcher
 * reads them from the client's result file name, {@code …_gpus_<G>_ctx_<P>_gen_<D>}).
 */
public final class RunIdentities {

  private RunIdentities() {}

  /**
   * The identity of a single-node row (fixed-seq-len or AgentX).
   *
   * @throws IllegalArgumentException for a multi-node row (its GPU counts come from the point: use
   *     {@link #of(MatrixRow, int, int)})
   * @throws io.infx.results.ResultsException kind {@code invalid_component_metadata} for a
   *     {@code router} without a version, {@code invalid_topology} for sizes the normalizer refuses,
   *     as the environment route does
   */
  public static RunIdentity of(MatrixRow row) {
    Objects.requireNonNull(row, "row");
    if (!(row instanceof MatrixRow.OnOneNode one)) {
      throw new IllegalArgumentException("the multi-node row " + row.expName() + " needs the point's "
          + "physical GPU counts: RunIdentities.of(row, prefillGpus, decodeGpus)");
    }
    Parallelism p = Parallelism.builder().tp(one.tp()).pp(one.pp()).dcpSize(one.dcpSize())
        .pcpSize(one.pcpSize()).ep(one.ep()).build();
    return base(row, false).topology(SingleNodeTopology.of(p, one.dpAttn())).build();
  }

  /**
   * The identity of one point of a multi-node row.
   *
   * @param prefillGpus physical GPUs of the prefill role ({@code PREFILL_GPUS}, the {@code ctx_<P>}
   *     of the result name; at least 1)
   * @param decodeGpus physical GPUs of the decode role ({@code DECODE_GPUS}, {@code gen_<D>}; 0 for
   *     an aggregate point)
   * @throws IllegalArgumentException for a single-node row (use {@link #of(MatrixRow)})
   * @throws io.infx.results.ResultsException kind {@code invalid_topology} or {@code
   *     invalid_component_metadata}, as the environment route does
   */
  public static RunIdentity of(MatrixRow row, int prefillGpus, int decodeGpus) {
    Objects.requireNonNull(row, "row");
    if (!(row instanceof MatrixRow.OnManyNodes many)) {
      throw new IllegalArgumentException("the single-node row " + row.expName()
          + " has no prefill/decode GPU counts: RunIdentities.of(row)");
    }
    MatrixRow.RowWorker prefill = many.prefill();
    MatrixRow.RowWorker decode = many.decode();
    Topology t = MultiNodeTopology.builder()
        .prefill(parallelism(prefill))
        .prefillDpAttention(Boolean.toString(prefill.dpAttn()))
        .prefillNumWorkers(prefill.numWorker())
        .decode(parallelism(decode))
        .decodeDpAttention(Boolean.toString(decode.dpAttn()))
        .decodeNumWorkers(decode.numWorker())
        .prefillGpus(prefillGpus)
        .decodeGpus(decodeGpus)
        .prefillHardware(prefill.hardware().filter(h -> !h.isEmpty()))
        .decodeHardware(decode.hardware().filter(h -> !h.isEmpty()))
        .build();
    var b = base(row, many.disagg()).topology(t);
    many.kvP2pTransfer().filter(kv -> !kv.isEmpty()).ifPresent(b::kvP2pTransfer);
    return b.build();
  }

  private static Parallelism parallelism(MatrixRow.RowWorker w) {
    return Parallelism.builder().tp(w.tp()).pp(w.pp()).dcpSize(w.dcpSize()).pcpSize(w.pcpSize()).ep(w.ep())
        .build();
  }

  private static io.infx.results.ImmutableRunIdentity.Builder base(MatrixRow row, boolean disagg) {
    boolean fixed = row instanceof MatrixRow.FixedSeqLen;
    var b = RunIdentity.builder()
        .hw(row.runner())
        .image(row.image())
        .modelPrefix(row.modelPrefix())
        .framework(row.framework())
        .precision(row.precision())
        .specDecoding(row.specDecoding())
        .disagg(disagg)
        .recipeFingerprint(row.recipeFingerprint().orElse(""))
        .isl(fixed ? ((MatrixRow.FixedSeqLen) row).isl() : 0)
        .osl(fixed ? ((MatrixRow.FixedSeqLen) row).osl() : 0);
    // the router object keeps its key order in the aggregate: the reference's metadata rule reads it
    row.router().flatMap(r -> ComponentMetadata.parse(LaunchVariable.ROUTER_METADATA.name(), r.toJson()))
        .ifPresent(b::router);
    return b;
  }
}
