package io.infx.client.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-runs the peer renderer live when it is installed ({@code node} on the PATH and
 * {@code benchmarks/chat-templates/node_modules}, from {@code npm ci}) and checks that it still
 * produces the committed goldens byte for byte, so the goldens {@link ChatTemplateGoldenTest}
 * trusts are the peer's real output. Skipped otherwise (CI needs no Node).
 */
class ChatTemplatePeerLiveTest {

  @Test
  void thePeerStillRendersTheCommittedGoldens(@TempDir Path out) throws Exception {
    Path repo = Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize();
    Path tool = repo.resolve("benchmarks/chat-templates");
    Path templates = ChatTemplateGoldenTest.templatesDir();
    assumeTrue(Files.isDirectory(tool.resolve("node_modules/@huggingface/jinja")),
        "peer not installed (cd benchmarks/chat-templates && npm ci); skipping");
    assumeTrue(Files.isDirectory(templates), "chat templates not found at " + templates);
    Process p;
    try {
      p = new ProcessBuilder("node", tool.resolve("render-goldens.mjs").toString(),
          templates.toString(), out.toString()).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      assumeTrue(false, "node not on the PATH; skipping");
      return;
    }
    String log = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(log).isZero();
    Path committed = Path.of(ChatTemplateGoldenTest.class.getResource("/chat-templates/goldens/peer")
        .toURI());
    List<Path> files;
    try (Stream<Path> s = Files.list(out)) {
      files = s.sorted().toList();
    }
    assertThat(files).hasSizeGreaterThanOrEqualTo(70);
    for (Path f : files) {
      assertThat(f).as(f.getFileName().toString()).hasSameBinaryContentAs(committed.resolve(f.getFileName()));
    }
  }
}
