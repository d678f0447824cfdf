package io.infx.fleet.slurm;

import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Slurm job state + {@code ExitCode} → {@link JobStatus}. Only {@code COMPLETED} with {@code 0:0}
 * succeeds (a cancelled allocation also reports {@code 0:0}); failures of the infrastructure
 * ({@code NODE_FAIL}, {@code BOOT_FAIL}, {@code PREEMPTED}) are failures marked retriable; the
 * rest follows the newer reference's mapping (fleet spec §8) with time-outs kept apart.
 */
public final class SlurmStates {

  private SlurmStates() {}

  /**
   * @param state Slurm's state name, e.g. {@code COMPLETED}, {@code CANCELLED by 0}; empty = unknown
   * @param exitCode Slurm's {@code <code>:<signal>} pair, e.g. {@code 3:0}; may be empty
   */
  public static JobStatus map(String state, String exitCode) {
    String s = state == null ? "" : state.strip().toUpperCase(Locale.ROOT);
    String word = s.split("[ +]", 2)[0];
    String raw = s + "|" + (exitCode == null ? "" : exitCode);
    OptionalInt code = code(exitCode);
    JobState js = switch (word) {
      case "" -> JobState.UNKNOWN;
      case "PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD" -> JobState.PENDING;
      case "RUNNING", "COMPLETING", "STAGE_OUT", "SIGNALING", "RESIZING", "SUSPENDED", "STOPPED" -> JobState.RUNNING;
      case "COMPLETED" -> "0:0".equals(exitCode) ? JobState.SUCCEEDED : JobState.FAILED;
      case "CANCELLED" -> JobState.CANCELLED;
      case "TIMEOUT", "DEADLINE" -> JobState.TIMED_OUT;
      default -> JobState.FAILED; // FAILED, NODE_FAIL, BOOT_FAIL, PREEMPTED, OUT_OF_MEMORY, SPECIAL_EXIT …
    };
    JobStatus st = code.isPresent() ? new JobStatus(js, raw, code, java.util.Optional.empty(), false)
        : JobStatus.of(js, raw);
    if (word.equals("NODE_FAIL") || word.equals("BOOT_FAIL") || word.equals("PREEMPTED")) {
      st = st.asRetriable();
    }
    return st;
  }

  /** {@code 3:0} → 3; {@code 0:9} (killed by signal 9) → 137; empty or malformed → empty. */
  static OptionalInt code(String exitCode) {
    if (exitCode == null || !exitCode.matches("\\d+:\\d+")) {
      return OptionalInt.empty();
    }
    String[] p = exitCode.split(":");
    int c = Integer.parseInt(p[0]);
    int sig = Integer.parseInt(p[1]);
    return OptionalInt.of(c == 0 && sig != 0 ? 128 + sig : c);
  }
}
