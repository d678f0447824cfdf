package io.infx.cli;

import io.infx.core.json.Json;
import io.infx.matrix.changelog.Canary;
import io.infx.matrix.changelog.ChangelogPlan;
import io.infx.matrix.changelog.ChangelogPlanner;
import io.infx.matrix.changelog.RepositoryPlanner;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code infx plan}: the changelog planner (reference {@code python -m infx.matrix.plan}). Takes
 * the reference's arguments, runs in the repository's working directory like the reference, and
 * prints the bucketed matrix as one JSON object on stdout.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
        "Plan the CI sweep for the perf-changelog entries appended between two revisions.",
        "Reads the added lines with git diff, the head's configs/*-master.yaml and "
            + "configs/runners.yaml from the working directory, and prints the bucketed matrix "
            + "(single_node, multi_node, evals, agentic_evals, multinode_evals, "
            + "multinode_agentic_evals, changelog_metadata) as JSON."
    })
public final class PlanCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--base-ref", required = true, paramLabel = "BASE",
      description = "Base revision (branch, tag or commit) the changelog is compared against.")
  String baseRef;

  @Option(names = "--head-ref", required = true, paramLabel = "HEAD",
      description = "Head revision holding the appended entries.")
  String headRef;

  @Option(names = "--changelog-file", required = true, paramLabel = "FILE",
      description = "The changelog, relative to the working directory (e.g. perf-changelog.yaml).")
  String changelogFile;

  @Option(names = "--trim-conc",
      description = "Keep only the minimum concurrency of every throughput shape; evals keep "
          + "their selected concurrency.")
  boolean trimConc;

  @Option(names = "--all-evals",
      description = "Expand every entry's eval selection; throughput is kept.")
  boolean allEvals;

  @Option(names = "--evals-only", description = "Suppress throughput for every entry.")
  boolean evalsOnly;

  @Option(names = "--canary",
      description = "Select a canary row (lowest-concurrency non-eval single-node 1k1k/8k1k or "
          + "AgentX row, else multi-node AgentX), move it to a 'canary' key.")
  boolean canary;

  @Option(names = "--allow-retired",
      description = "Accept 'retired: true' entries: verify the selected configs existed at the "
          + "base and are gone at the head; output metadata only. Off by default, as in the "
          + "reference.")
  boolean allowRetired;

  @Option(names = "-C", paramLabel = "DIR",
      description = "Run as if infx was started in DIR (like git -C).")
  Path directory;

  @Override
  public Integer call() {
    Path workDir = (directory != null ? directory : Path.of("")).toAbsolutePath().normalize();
    ChangelogPlanner.Options options =
        new ChangelogPlanner.Options(trimConc, allEvals, evalsOnly, allowRetired);
    ChangelogPlan plan = RepositoryPlanner.standard()
        .plan(workDir, baseRef, headRef, changelogFile, options);
    if (canary) {
      plan = Canary.apply(plan);
    }
    try {
      spec.commandLine().getOut().println(Json.compact().writeValueAsString(plan.toJson()));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("plan JSON could not be written", e);
    }
    return 0;
  }
}
