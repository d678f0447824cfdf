package io.infx.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code infx bench}: load generators ({@code serve}; AgentX adds {@code agentic}). */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Drive load against an OpenAI-compatible server and write raw results.",
    subcommands = {
        CommandLine.HelpCommand.class,
        BenchServeCommand.class,
        BenchAgenticCommand.class,
    })
public final class BenchCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing subcommand (serve)");
  }
}
