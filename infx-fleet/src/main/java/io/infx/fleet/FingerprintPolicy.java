package io.infx.fleet;

/**
 * How a row's {@code recipe-fingerprint} (64 hex chars, set by the planner) enters
 * {@code RESULT_FILENAME}. The reference has two rules; pick one per run and never mix them, since
 * names are the join key of every later stage (fleet spec §4, §14).
 */
public enum FingerprintPolicy {
  /**
   * The Aug-2026 workflow rule: append {@code _recipe-} and the fingerprint's first 16
   * characters; no length limit. The results corpus (case 010) uses it.
   */
  LEGACY_PREFIX16,
  /**
   * The newer {@code result_filename} helper: append {@code _recipe-} and the full fingerprint,
   * then bound the stem to 120 UTF-8 bytes (longer stems are cut and suffixed with {@code -} + the
   * first 20 hex chars of the SHA-256 of the uncut stem); point names bound their config part so
   * {@code power_validation_<name>.json.tmp} fits the 255-byte file-name limit.
   */
  COMPACT_SHA256
}
