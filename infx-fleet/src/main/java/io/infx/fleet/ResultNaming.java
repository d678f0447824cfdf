package io.infx.fleet;

import static io.infx.core.launch.LaunchVariable.*;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.launch.LaunchVariable;
import io.infx.matrix.MatrixRow;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code RESULT_FILENAME} and the names derived from it (fleet spec §4): the join key of every
 * later stage — raw result {@code <RF>.json}, aggregate {@code agg_<RF>.json}, artifact names.
 *
 * <p>Single-node base (reference {@code benchmark-tmpl.yml}):
 * <pre>{EXP_NAME}_{PRECISION}_{FRAMEWORK}_tp{TP}-pp{PP_SIZE}-dcp{DCP_SIZE}-pcp{PCP_SIZE}-ep{EP_SIZE}-dpa{DP_ATTENTION}_disagg-{DISAGG}_spec-{SPEC_DECODING}_conc{CONC}_{RUNNER_NAME}</pre>
 * Multi-node base ({@code benchmark-multinode-tmpl.yml}; note {@code -dp} instead of {@code -dpa},
 * and the concurrency list joined with {@code x}):
 * <pre>{EXP_NAME}_{PRECISION}_{FRAMEWORK}_prefill-tp{..}-pp{..}-dcp{..}-pcp{..}-ep{..}-dp{..}-nw{..}_decode-tp{..}-pp{..}-dcp{..}-pcp{..}-ep{..}-dp{..}-nw{..}_disagg-{DISAGG}_spec-{SPEC_DECODING}_conc{c1}x{c2}…_{RUNNER_NAME}</pre>
 * A non-empty {@code recipe-fingerprint} is then appended per {@link FingerprintPolicy}.
 * {@code RUNNER_NAME} is the concrete runner, so one point on two machines gets two names.
 */
public final class ResultNaming {

  /** Stem budget of the newer rule, in UTF-8 bytes. */
  public static final int STEM_BUDGET_BYTES = 120;
  /** File-name limit the point names are fitted into (bytes). */
  public static final int FILENAME_LIMIT_BYTES = 255;

  private ResultNaming() {}

  /**
   * {@code RESULT_FILENAME} of {@code row} on {@code runner}.
   *
   * @throws io.infx.core.ValidationException when the row lacks a key the name needs
   */
  public static String resultFilename(MatrixRow row, RunnerName runner, FingerprintPolicy policy) {
    RunContext ctx = RunContext.builder().fingerprintPolicy(policy).build();
    return EnvProjector.standard().project(row, runner, ctx).resultFilename();
  }

  /** Computes the name from already projected values (shared with {@link EnvProjector}). */
  static String fromProjected(Map<String, String> env, boolean multiNode, RunnerName runner, FingerprintPolicy policy) {
    StringBuilder base = new StringBuilder();
    base.append(env.get(EXP_NAME.name())).append('_').append(env.get(PRECISION.name())).append('_')
        .append(env.get(FRAMEWORK.name())).append('_');
    if (!multiNode) {
      base.append("tp").append(env.get(TP.name())).append("-pp").append(env.get(PP_SIZE.name()))
          .append("-dcp").append(env.get(DCP_SIZE.name())).append("-pcp").append(env.get(PCP_SIZE.name()))
          .append("-ep").append(env.get(EP_SIZE.name())).append("-dpa").append(env.get(DP_ATTENTION.name()))
          .append("_disagg-").append(env.get(DISAGG.name())).append("_spec-").append(env.get(SPEC_DECODING.name()))
          .append("_conc").append(env.get(CONC.name()));
    } else {
      role(base, env, "prefill");
      base.append('_');
      role(base, env, "decode");
      base.append("_disagg-").append(env.get(DISAGG.name())).append("_spec-").append(env.get(SPEC_DECODING.name()))
          .append("_conc").append(env.get(CONC_LIST.name()).replace(' ', 'x'));
    }
    base.append('_').append(runner.name());
    return withFingerprint(base.toString(), env.getOrDefault(RECIPE_FINGERPRINT.name(), ""), policy);
  }

  private static void role(StringBuilder sb, Map<String, String> env, String role) {
    boolean prefill = role.equals("prefill");
    sb.append(role).append("-tp").append(env.get((prefill ? PREFILL_TP : DECODE_TP).name()))
        .append("-pp").append(env.get((prefill ? PREFILL_PP_SIZE : DECODE_PP_SIZE).name()))
        .append("-dcp").append(env.get((prefill ? PREFILL_DCP_SIZE : DECODE_DCP_SIZE).name()))
        .append("-pcp").append(env.get((prefill ? PREFILL_PCP_SIZE : DECODE_PCP_SIZE).name()))
        .append("-ep").append(env.get((prefill ? PREFILL_EP : DECODE_EP).name()))
        .append("-dp").append(env.get((prefill ? PREFILL_DP_ATTN : DECODE_DP_ATTN).name()))
        .append("-nw").append(env.get((prefill ? PREFILL_NUM_WORKERS : DECODE_NUM_WORKERS).name()));
  }

  /**
   * Applies the fingerprint rule to a base name: unchanged when {@code fingerprint} is empty;
   * {@link FingerprintPolicy#LEGACY_PREFIX16} appends {@code _recipe-} + its first 16 characters;
   * {@link FingerprintPolicy#COMPACT_SHA256} appends the full fingerprint and bounds the result to
   * {@link #STEM_BUDGET_BYTES} with {@link #compact} (bounding applies with or without a
   * fingerprint under that policy).
   */
  public static String withFingerprint(String base, String fingerprint, FingerprintPolicy policy) {
    return switch (policy) {
      case LEGACY_PREFIX16 -> fingerprint.isEmpty() ? base
          : base + "_recipe-" + fingerprint.substring(0, Math.min(16, fingerprint.length()));
      case COMPACT_SHA256 -> compact(fingerprint.isEmpty() ? base : base + "_recipe-" + fingerprint,
          STEM_BUDGET_BYTES);
    };
  }

  /**
   * Name of one multi-node result point, {@code <stem>_<config>_conc<N>_gpus_<G>.json} or, for
   * disaggregated points, {@code …_gpus_<G>_ctx_<C>_gen_<D>.json}, where {@code config} is the
   * recipe's output subdirectory ({@code *isl*osl*}) and G/C/D are total/prefill/decode GPUs.
   * Under {@link FingerprintPolicy#COMPACT_SHA256} the config part is bounded so that
   * {@code power_validation_<name>.tmp} fits {@link #FILENAME_LIMIT_BYTES}; the numeric tail stays
   * readable.
   *
   * @throws InfxException kind {@code naming} for an empty config or one containing a path separator
   */
  public static String pointFilename(String stem, String config, int conc, int gpus,
      OptionalInt ctxGpus, OptionalInt genGpus, FingerprintPolicy policy) {
    if (ctxGpus.isPresent() != genGpus.isPresent()) {
      throw new IllegalArgumentException("ctx and gen GPU counts go together");
    }
    requireComponent(config);
    String tail = "_conc" + conc + "_gpus_" + gpus
        + (ctxGpus.isPresent() ? "_ctx_" + ctxGpus.getAsInt() + "_gen_" + genGpus.getAsInt() : "");
    if (policy == FingerprintPolicy.COMPACT_SHA256) {
      int fixed = utf8("power_validation_" + stem + "_" + tail + ".json.tmp");
      config = compact(config, FILENAME_LIMIT_BYTES - fixed);
    }
    return stem + "_" + config + tail + ".json";
  }

  /** Per-concurrency result of a multi-node agentic point: {@code <stem>_conc<N>.json}. */
  public static String agenticPointFilename(String stem, int conc) {
    return stem + "_conc" + conc + ".json";
  }

  /**
   * Bounds a file-name component to {@code budgetBytes} UTF-8 bytes: unchanged when it fits, else
   * cut (never inside a character) and suffixed with {@code -} + the first 20 hex characters of
   * the SHA-256 of the whole component — the newer reference helper's rule.
   *
   * @throws InfxException kind {@code naming} for an empty component, one containing
   *     {@code / \ CR LF NUL}, or a budget too small for the suffix
   */
  public static String compact(String value, int budgetBytes) {
    requireComponent(value);
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= budgetBytes) {
      return value;
    }
    String suffix = "-" + HexFormat.of().formatHex(sha256(bytes)).substring(0, 20);
    if (budgetBytes < suffix.length()) {
      throw new InfxException(ErrorKind.NAMING, "a " + budgetBytes + "-byte budget leaves no room for the identity of '"
          + value + "'");
    }
    int keep = budgetBytes - suffix.length();
    // Back off to a character boundary (UTF-8 continuation bytes are 10xxxxxx).
    while (keep > 0 && keep < bytes.length && (bytes[keep] & 0xC0) == 0x80) {
      keep--;
    }
    return new String(bytes, 0, keep, StandardCharsets.UTF_8) + suffix;
  }

  private static void requireComponent(String value) {
    if (value == null || value.isEmpty()) {
      throw new InfxException(ErrorKind.NAMING, "a file-name component is empty");
    }
    for (char c : new char[] {'/', '\\', '\r', '\n', '\0'}) {
      if (value.indexOf(c) >= 0) {
        throw new InfxException(ErrorKind.NAMING, "file-name component '" + value.replace("\n", "\\n")
            + "' contains a path separator or control character");
      }
    }
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
