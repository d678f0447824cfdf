package io.infx.results;

import io.infx.core.ErrorKind;
import io.infx.core.InfxStyle;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Who and what a result measured: hardware label, image, model prefix, framework, precision,
 * speculative decoding, sequence lengths, optional router and KV transfer metadata, and the
 * {@link Topology}. The aggregate row publishes these next to the measured numbers.
 *
 * <p>The reference takes all of this from environment variables ({@link #fromEnvironment(Map)});
 * embedding code builds it directly with {@link #builder()} and never touches the environment.
 */
@Value.Immutable
@InfxStyle
public abstract class RunIdentity {

  /** The runner label the job was scheduled on ({@code RUNNER_TYPE}, e.g. {@code h200}); key {@code hw}. */
  public abstract String hw();

  /** Serving container image ({@code IMAGE}). */
  public abstract String image();

  /** Model prefix of the master config ({@code MODEL_PREFIX}); key {@code infmax_model_prefix}. */
  public abstract String modelPrefix();

  /** Serving framework ({@code FRAMEWORK}, e.g. {@code sglang}, {@code dynamo-trt}). */
  public abstract String framework();

  /** Precision ({@code PRECISION}, e.g. {@code fp8}). */
  public abstract String precision();

  /** Speculative decoding ({@code SPEC_DECODING}: {@code none}, {@code mtp}, …). */
  public abstract String specDecoding();

  /** Disaggregated prefill/decode ({@code DISAGG}); requires a multi-node topology. */
  public abstract boolean disagg();

  /** Recipe fingerprint ({@code RECIPE_FINGERPRINT}), {@code ""} when unset. */
  @Value.Default
  public String recipeFingerprint() {
    return "";
  }

  /** Nominal input sequence length in tokens ({@code ISL}). */
  public abstract int isl();

  /** Nominal output sequence length in tokens ({@code OSL}). */
  public abstract int osl();

  /** Router identity ({@code ROUTER_METADATA}). */
  public abstract Optional<ComponentMetadata> router();

  /** KV-cache transfer mechanism between roles ({@code KV_P2P_TRANSFER}), non-empty when present. */
  public abstract Optional<String> kvP2pTransfer();

  public abstract Topology topology();

  @Value.Check
  protected void check() {
    if (disagg() && !topology().isMultinode()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Disaggregated mode requires multinode setup.");
    }
    if (disagg() && topology() instanceof MultiNodeTopology m && m.aggregateGpus() > 0) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Aggregate GPUs require non-disaggregated topology without role GPUs");
    }
    if (kvP2pTransfer().filter(String::isEmpty).isPresent()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "kv_p2p_transfer must be non-empty when given");
    }
  }

  /**
   * Identity values that are empty strings, named by their environment variables. The reference
   * accepts them (an empty value counts as defined) and publishes {@code ""}; infx keeps that but
   * warns, because such a row cannot be told apart on the dashboard.
   */
  public java.util.List<String> emptyValues() {
    java.util.List<String> out = new java.util.ArrayList<>();
    java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
    values.put(io.infx.core.launch.LaunchVariable.RUNNER_TYPE.name(), hw());
    values.put(io.infx.core.launch.LaunchVariable.FRAMEWORK.name(), framework());
    values.put(io.infx.core.launch.LaunchVariable.PRECISION.name(), precision());
    values.put(io.infx.core.launch.LaunchVariable.SPEC_DECODING.name(), specDecoding());
    values.put(io.infx.core.launch.LaunchVariable.MODEL_PREFIX.name(), modelPrefix());
    values.put(io.infx.core.launch.LaunchVariable.IMAGE.name(), image());
    values.forEach((k, v) -> {
      if (v.isEmpty()) {
        out.add(k);
      }
    });
    return out;
  }

  public static ImmutableRunIdentity.Builder builder() {
    return ImmutableRunIdentity.builder();
  }

  /**
   * Reads the identity from the variables the reference workflows export, with the reference's
   * checks in the reference's order (base variables, ISL/OSL, router, KV transfer, topology).
   *
   * @param env the complete environment as a map (e.g. {@code System.getenv()})
   * @throws ResultsException {@code missing_env}, {@code invalid_env_value},
   *     {@code invalid_component_metadata} or {@code invalid_topology}
   */
  public static RunIdentity fromEnvironment(Map<String, String> env) {
    return ReferenceEnvironment.identity(env, NormalizerOptions.reference());
  }
}
