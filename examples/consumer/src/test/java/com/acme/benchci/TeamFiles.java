package com.acme.benchci;

import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Path;

/** The team's own files (paths relative to the project directory, where Maven runs the tests). */
final class TeamFiles {

  /** The fleet: two clusters, 8 and 4 GPUs per node, both launched through acme-queue. */
  static final Path RUNNERS_FILE = Path.of("config", "runners.yaml");

  /** The master config the fleet runs. */
  static final Path CONFIG_FILE = Path.of("config", "bench-ci.yaml");

  static final RunnerInventory RUNNERS = RunnerInventory.load(RUNNERS_FILE);

  private TeamFiles() {}

  /** GPUs per node of each label, read off config/runners.yaml by hand (not through the rule). */
  static int gpusPerNode(String label) {
    return switch (label) {
      case "h100", "cluster:acme-h100" -> 8;
      case "l40s", "cluster:acme-l40s" -> 4;
      default -> throw new IllegalArgumentException("not a label of config/runners.yaml: " + label);
    };
  }

  /** 1-based line and column of the first {@code text} in {@code yaml} (after {@code after}). */
  static int[] position(String yaml, String after, String text) {
    int at = yaml.indexOf(text, yaml.indexOf(after));
    if (at < 0 || yaml.indexOf(after) < 0) {
      throw new IllegalArgumentException("'" + text + "' after '" + after + "' is not in the file");
    }
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < at; i++) {
      if (yaml.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new int[] {line, at - lineStart + 1};
  }
}
