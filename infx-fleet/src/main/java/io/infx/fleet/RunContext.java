package io.infx.fleet;

import io.infx.core.InfxStyle;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.immutables.value.Value;

/**
 * What a projection needs besides the row and the runner: workflow inputs that are not row keys
 * (PR labels, dispatcher overrides), the naming policy, and secret values. Every attribute has the
 * reference workflow's default, so {@code RunContext.defaults()} reproduces a plain CI job.
 */
@Value.Immutable
@InfxStyle
public abstract class RunContext {

  /** Secret variables the templates pass from repository secrets. Values are never printed. */
  public static final java.util.List<String> SECRET_NAMES =
      io.infx.core.launch.LaunchVariable.names(io.infx.core.launch.LaunchVariable.HF_TOKEN,
          io.infx.core.launch.LaunchVariable.MODAL_TOKEN_ID, io.infx.core.launch.LaunchVariable.MODAL_TOKEN_SECRET);

  /** Naming rule for fingerprinted rows; default {@link FingerprintPolicy#LEGACY_PREFIX16}. */
  @Value.Default
  public FingerprintPolicy fingerprintPolicy() {
    return FingerprintPolicy.LEGACY_PREFIX16;
  }

  /** The {@code agentx-fast} PR label → {@code AIPERF_EXPERIMENTAL_FAST=1}. */
  @Value.Default
  public boolean agentxFast() {
    return false;
  }

  /** A dispatcher's {@code duration} override in seconds (else the row's, else 3600). */
  public abstract OptionalInt durationOverride();

  /** {@code require-power} forced on (else the row's {@code require-power}). */
  @Value.Default
  public boolean requirePower() {
    return false;
  }

  /** {@code eval-limit} input ({@code EVAL_LIMIT}); empty = whole split. */
  @Value.Default
  public String evalLimit() {
    return "";
  }

  /** {@code swebench-gen-mode} input; empty means {@code agentic}, as in the reference. */
  @Value.Default
  public String swebenchGenMode() {
    return "";
  }

  /** {@code power-producer-sha} input (multi-node only). */
  @Value.Default
  public String powerProducerSha() {
    return "";
  }

  /** {@code PYTHONPYCACHEPREFIX}; the reference uses {@code <tmp>/inferencex-pycache}. */
  @Value.Default
  public String pycachePrefix() {
    return "/tmp/inferencex-pycache";
  }

  /**
   * Secret values by name (e.g. {@code HF_TOKEN}). Only names given here are projected; they are
   * flagged in {@link LaunchEnv#secretNames()} so printers redact them and container/Kubernetes
   * backends can pass them by reference.
   */
  public abstract Map<String, String> secrets();

  /** The plain CI defaults, no secrets. */
  public static RunContext defaults() {
    return builder().build();
  }

  /** Defaults, with the secrets of {@link #SECRET_NAMES} that are set and non-empty in {@code env}. */
  public static RunContext fromEnvironment(Map<String, String> env) {
    var b = builder();
    for (String name : SECRET_NAMES) {
      Optional.ofNullable(env.get(name)).filter(v -> !v.isEmpty()).ifPresent(v -> b.putSecrets(name, v));
    }
    return b.build();
  }

  public static ImmutableRunContext.Builder builder() {
    return ImmutableRunContext.builder();
  }
}
