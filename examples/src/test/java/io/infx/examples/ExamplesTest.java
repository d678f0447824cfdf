package io.infx.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented examples keep working: every Java example runs, every JShell script evaluates
 * without a rejected snippet or an exception (Surefire runs this from the repository root, like
 * {@code examples/run}; outputs go to a temporary directory).
 */
class ExamplesTest {

  @TempDir Path tmp;

  private static String captureStdout(ThrowingRunnable body) throws Exception {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      System.setOut(old);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void expandSweepListsTheSingleNodeRows() throws Exception {
    String out = captureStdout(() -> ExpandSweep.main(new String[0]));
    assertThat(out).contains("3 configs → 10 single-node rows").contains("llama_8k1k").contains("runner=h100");
  }

  /**
   * The standalone consumer project's CI tool (examples/consumer, compiled into this module too, so
   * an API change that breaks it fails here and not only in CI's separate consumer build).
   */
  @Test
  void consumerCiToolExpandsBenchmarksAndGates() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    boolean passed = com.acme.benchci.BenchmarkGate.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(out).contains("expanded: 2 matrix rows").contains("Sweep.singleNode(acme-bf16-h100-vllm{")
        .contains("SIMULATED").contains("conc=1 ").contains("conc=4 ")
        .containsPattern("SIMULATED AgentX replay in memory: [1-9][0-9]* sessions, [1-9][0-9]* ok / 0 failed");
    assertThat(passed).as(out).isTrue();
  }

  @Test
  void benchmarkOnSimulatorNormalizesAndReports() throws Exception {
    String out = captureStdout(() -> BenchmarkOnSimulator.main(new String[] {tmp.toString(), "1"}));
    assertThat(out).contains("Successful requests:").contains("tput/GPU");
    assertThat(tmp.resolve("example_conc1.json")).exists();
    assertThat(tmp.resolve("agg_example_conc1.json")).exists();
    assertThat(tmp.resolve("report.html")).exists();
  }

  @Test
  void runQuickstartRunsTheBoundedPipeline() throws Exception {
    String out = captureStdout(() -> RunQuickstart.main(new String[] {tmp.toString()}));
    assertThat(out).contains("[3/3] SUCCEEDED").contains("report: ");
    assertThat(tmp.resolve("results_bmk/agg_bmk.json")).exists();
  }

  @Test
  void everyJshellScriptEvaluatesCleanly() throws Exception {
    List<Path> scripts;
    try (var s = Files.list(Path.of("examples", "jshell"))) {
      scripts = s.filter(p -> p.toString().endsWith(".jsh")).sorted().toList();
    }
    assertThat(scripts).extracting(p -> p.getFileName().toString())
        .contains("expand-sweep.jsh", "run-benchmark.jsh", "summarize.jsh");
    for (Path script : scripts) {
      String text = Files.readString(script).replace("\"infx-out/", "\"" + tmp.toString().replace('\\', '/') + "/");
      List<String> problems = evaluate(text);
      assertThat(problems).as(script.toString()).isEmpty();
    }
  }

  /**
   * Evaluates a script the way the {@code jshell} tool reads a file: line by line, a snippet ends
   * at the first line that completes it (so a line starting with {@code .} after a complete
   * statement is an error, as it is for users). Returns every rejection or exception.
   */
  private static List<String> evaluate(String script) {
    List<String> problems = new ArrayList<>();
    try (JShell js = JShell.builder().executionEngine("local").build()) {
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        js.addToClasspath(entry);
      }
      SourceCodeAnalysis analysis = js.sourceCodeAnalysis();
      StringBuilder buffer = new StringBuilder();
      for (String line : script.split("\n")) {
        if (buffer.length() == 0 && line.startsWith("/")) {     // a JShell command such as /exit
          continue;
        }
        buffer.append(line).append('\n');
        String rest = buffer.toString();
        while (true) {
          SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(rest);
          SourceCodeAnalysis.Completeness c = info.completeness();
          if (c == SourceCodeAnalysis.Completeness.EMPTY) {
            rest = "";
            break;
          }
          if (!c.isComplete()) {
            break;
          }
          for (SnippetEvent e : js.eval(info.source())) {
            if (e.status() == Snippet.Status.REJECTED) {
              problems.add("rejected: " + info.source().strip() + " — "
                  + js.diagnostics(e.snippet()).map(d -> d.getMessage(null)).toList());
            }
            if (e.exception() != null) {
              problems.add("threw: " + info.source().strip() + " — " + e.exception());
            }
          }
          rest = info.remaining();
        }
        buffer.setLength(0);
        buffer.append(rest);
      }
      if (!buffer.toString().isBlank()) {
        problems.add("incomplete at the end: " + buffer.toString().strip());
      }
    }
    return problems;
  }
}
