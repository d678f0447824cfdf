package io.infx.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.infx.report.internal.Charts;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders a written report in headless Chromium (Debian's {@code chromium}; {@code .ci/run}
 * installs it) and checks that the browser drew the charts. Skipped, with the reason, when no
 * Chromium is installed — unless {@code INFX_REQUIRE_CHROMIUM=1} (CI), then it fails.
 * {@code INFX_CHROMIUM} names another binary.
 */
class ReportInChromiumTest {

  private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu",
      "--disable-background-networking", "--no-first-run", "--disable-component-update",
      "--disable-sync", "--disable-extensions", "--force-color-profile=srgb", "--hide-scrollbars",
      "--mute-audio");

  private static Path chromium;

  @BeforeAll
  static void findChromium() {
    Optional<Path> found = locate();
    if (found.isEmpty() && "1".equals(System.getenv("INFX_REQUIRE_CHROMIUM"))) {
      throw new AssertionError("INFX_REQUIRE_CHROMIUM=1 (set by .ci/run) but no Chromium was found");
    }
    assumeTrue(found.isPresent(), "headless Chromium not found (looked for $INFX_CHROMIUM, chromium, "
        + "chromium-browser, google-chrome on PATH); install it with `apt-get install -y chromium` "
        + "— .ci/run does — to run the browser rendering test");
    chromium = found.get();
  }

  @Test
  void chromiumDrawsEveryChartOfTheReport(@TempDir Path dir) throws Exception {
    BenchmarkReport report = BenchmarkReport.builder().title("chromium check")
        .points(ReportPoints.fromAggregates(SampleRows.sweep()).points()).build();
    ReportFiles files = report.writeTo(dir.resolve("report"));
    String url = files.html().toUri().toString();

    // 1. The DOM after load: three chart figures, each holding a parsed <svg> with drawn paths.
    String dom = run(dir, "dom", List.of("--dump-dom", url));
    assertThat(Pattern.compile("<figure class=\"chart\"").matcher(dom).results().count()).isEqualTo(3);
    for (ReportChart c : report.charts()) {
      int at = dom.indexOf("<svg id=\"" + c.name() + "\"");
      assertThat(at).as("svg element of " + c.name() + " in the loaded DOM").isGreaterThan(0);
      String svg = dom.substring(at, dom.indexOf("</svg>", at));
      assertThat(Pattern.compile("<path ").matcher(svg).results().count())
          .as("paths drawn in " + c.name()).isGreaterThan(10);
    }

    // 2. A screenshot: the configurations' colours were painted by the browser. Table swatches
    //    (10×10 px, 4 rows per configuration, < 400 px) cannot reach the threshold alone.
    Path shot = dir.resolve("shot.png");
    run(dir, "shot", List.of("--window-size=1200,4200", "--screenshot=" + shot, url));
    BufferedImage img = ImageIO.read(shot.toFile());
    assertThat(img).as("screenshot written").isNotNull();
    assertThat(img.getWidth()).isEqualTo(1200);
    for (int i = 0; i < 2; i++) {
      assertThat(BenchmarkReportTest.pixelsNear(img, Charts.PALETTE.get(i)))
          .as("pixels painted in the colour of configuration " + (i + 1)).isGreaterThan(4000);
    }
  }

  private static String run(Path dir, String name, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(chromium.toString());
    cmd.addAll(FLAGS);
    cmd.add("--user-data-dir=" + Files.createTempDirectory(dir, "profile-" + name));
    cmd.addAll(args);
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("Chromium did not finish within 120 s: " + cmd);
    }
    assertThat(p.exitValue()).as("Chromium exit status; stderr:\n" + Files.readString(err)).isZero();
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private static Optional<Path> locate() {
    String override = System.getenv("INFX_CHROMIUM");
    if (override != null && !override.isBlank()) {
      Path p = Path.of(override);
      return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String d : path.split(File.pathSeparator)) {
        Path p = Path.of(d.isEmpty() ? "." : d, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }
}
