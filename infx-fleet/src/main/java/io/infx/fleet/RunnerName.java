package io.infx.fleet;

import io.infx.core.UsageException;
import java.util.Optional;

/**
 * A concrete runner (one machine or one slot of a fleet), e.g. {@code h200-dgxc-slurm_3} — not the
 * scheduling label ({@code h200}, {@code cluster:h200-dgxc}) that a matrix row names.
 *
 * <p>Runner names have the shape {@code <fleet-id>_<NN>}; the fleet id uses {@code -} only. The
 * text before the <em>first</em> {@code _} selects the launcher in the reference
 * ({@code runners/launch_${RUNNER_NAME%%_*}.sh}); {@link #fleetPrefix()} reproduces that rule. Any
 * name is accepted, also one that {@code runners.yaml} does not list.
 *
 * @param name the concrete runner name; non-empty, no whitespace, no {@code /}
 */
public record RunnerName(String name) {

  public RunnerName {
    if (name == null || name.isEmpty()) {
      throw new UsageException("runner name is empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isWhitespace(c) || c == '/' || c == '\\' || Character.isISOControl(c)) {
        throw new UsageException("runner name '" + name
            + "' may not contain whitespace, '/' or '\\' (it becomes part of file names)");
      }
    }
  }

  public static RunnerName of(String name) {
    return new RunnerName(name);
  }

  /** Text before the first {@code _}, or the whole name when it has none (legacy routing key). */
  public String fleetPrefix() {
    int i = name.indexOf('_');
    return i < 0 ? name : name.substring(0, i);
  }

  /** Text after the last {@code _} (the slot number, e.g. {@code 3}), if there is one. */
  public Optional<String> ordinal() {
    int i = name.lastIndexOf('_');
    return i < 0 || i == name.length() - 1 ? Optional.empty() : Optional.of(name.substring(i + 1));
  }

  @Override
  public String toString() {
    return name;
  }
}
