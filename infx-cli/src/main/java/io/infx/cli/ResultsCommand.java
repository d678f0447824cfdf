package io.infx.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code infx results}: turn raw benchmark output into identified aggregate rows and work with
 * them. Each subcommand is its own class registered below (the AgentX subcommands
 * {@code agentic-aggregate} and {@code agentic-validate} belong to the AgentX area).
 */
@Command(
    name = "results",
    mixinStandardHelpOptions = true,
    description = "Normalize, collect, summarize and compare benchmark results.",
    subcommands = {
        CommandLine.HelpCommand.class,
        ResultsProcessCommand.class,
        ResultsCollectCommand.class,
        ResultsSummarizeCommand.class,
        ResultsCompareCommand.class,
        ResultsGateCommand.class,
        ResultsSuccessRateCommand.class,
        ResultsCollectEvalsCommand.class,
        ResultsValidateEvalsCommand.class,
        AgenticAggregateCommand.class,
        AgenticValidateCommand.class,
    })
public final class ResultsCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing subcommand");
  }
}
