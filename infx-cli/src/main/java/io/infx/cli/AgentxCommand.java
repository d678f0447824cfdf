package io.infx.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.agentx.TraceCapFilter;
import io.infx.client.agentx.WekaTraces;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code infx agentx}: tools for AgentX agentic-trace corpora. */
@Command(
    name = "agentx",
    mixinStandardHelpOptions = true,
    description = "Work with AgentX (Weka-format) agentic trace corpora.",
    subcommands = {
        CommandLine.HelpCommand.class,
        AgentxCommand.TraceFilter.class,
    })
public final class AgentxCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing subcommand");
  }

  /** {@code infx agentx trace-filter}: InferenceX's per-request context cap (the 256k corpora). */
  @Command(
      name = "trace-filter",
      mixinStandardHelpOptions = true,
      description = {
          "Drop every request whose in + out exceeds the cap, drop subagents left empty, recompute "
              + "partially filtered subagents and shift the timeline so the earliest survivor "
              + "starts at 0 (as InferenceX builds its *_256k corpora).",
          "A .json trace prints the filtered trace, or null when nothing survives; a .jsonl "
              + "corpus prints one line per surviving trace."})
  static final class TraceFilter implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--cap-tokens", paramLabel = "N", defaultValue = "256000",
        description = "Largest in + out a request may have (default: ${DEFAULT-VALUE}).")
    long capTokens;

    @Parameters(paramLabel = "TRACE", description = "A Weka trace (.json) or corpus (.jsonl).")
    Path trace;

    @Override
    public Integer call() throws IOException {
      if (capTokens < 0) {
        throw new UsageException("--cap-tokens must be >= 0");
      }
      PrintWriter out = spec.commandLine().getOut();
      if (trace.getFileName().toString().endsWith(".jsonl")) {
        WekaTraces.load(trace); // validate the whole corpus first: located errors, nothing printed
        try (BufferedReader in = Files.newBufferedReader(trace, StandardCharsets.UTF_8)) {
          String line;
          while ((line = in.readLine()) != null) {
            if (!line.isBlank()) {
              filter(Json.mapper().readTree(line)).ifPresent(t -> out.println(compact(t)));
            }
          }
        }
        return 0;
      }
      String text = readText(trace);
      WekaTraces.parse(text, trace.toString());
      Optional<ObjectNode> result = filter(Json.mapper().readTree(text));
      out.println(result.isPresent() ? Json.pretty().writeValueAsString(result.get()) : "null");
      return 0;
    }

    private Optional<ObjectNode> filter(JsonNode t) {
      return TraceCapFilter.filter((ObjectNode) t, capTokens);
    }

    private static String compact(JsonNode n) {
      try {
        return Json.compact().writeValueAsString(n);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }

    private static String readText(Path p) {
      try {
        return Files.readString(p);
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, "cannot read " + p + ": " + e.getMessage(), e);
      }
    }
  }
}
