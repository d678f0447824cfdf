package io.infx.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.store.IngestOptions;
import io.infx.store.ResultStore;
import io.infx.store.StoreLocation;
import java.awt.image.BufferedImage;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard over a store of three runs: the JSON endpoints, and the page in headless Chromium
 * (Debian's {@code chromium}; skipped with the reason when absent unless
 * {@code INFX_REQUIRE_CHROMIUM=1}): it loads without errors, draws the expected number of points,
 * and redraws after a filter change. The screenshot is kept as {@code target/dashboard-screenshot.png}.
 *
 * <p>Store: runs on 2026-11-01, 11-15 and 12-01; real h200 · sglang (conc 4, 8, 16; its conc-16
 * throughput drops 20 % in the last run) and b200 · vllm (conc 4, 8; first and last runs), and a
 * SIMULATED h100 · infx-sim series (conc 1, 2) in the last run only.
 */
class DashboardTest {

  static final LocalDate D1 = LocalDate.parse("2026-11-01");
  static final LocalDate D2 = LocalDate.parse("2026-11-15");
  static final LocalDate D3 = LocalDate.parse("2026-12-01");

  @TempDir static Path tmp;
  static ResultStore store;
  static Dashboard dashboard;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static ObjectNode row(String hw, String framework, int conc, double tput, boolean simulated) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("hw", hw + "-nv").put("conc", conc).put("image", "img:1").put("model", "deepseek-ai/DeepSeek-R1-0528")
        .put("infmax_model_prefix", "dsr1").put("framework", framework).put("precision", "fp8")
        .put("spec_decoding", "none").put("disagg", false).put("isl", 1024).put("osl", 1024)
        .put("is_multinode", false).put("tp", 8).put("ep", 1).put("dp_attention", false)
        .put("tput_per_gpu", tput).put("output_tput_per_gpu", tput / 2).put("input_tput_per_gpu", tput / 2)
        .put("median_ttft", 0.01 * conc).put("p99_ttft", 0.03 * conc).put("median_tpot", 0.002 * conc)
        .put("median_e2el", 2.0 * conc).put("median_intvty", 500.0 / conc).put("median_itl", 0.002 * conc);
    if (simulated) {
      o.put("server_engine", "infx-sim").put("server_version", "dev").put("simulated", true);
    }
    return o;
  }

  static Path runDir(String name, List<ObjectNode> rows) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve(name));
    ArrayNode all = Json.mapper().createArrayNode();
    for (ObjectNode r : rows) {
      String rf = "dsr1_1k1k_" + r.get("hw").asText() + "_" + r.get("framework").asText() + "_conc" + r.get("conc").asInt();
      Path bmk = Files.createDirectories(dir.resolve("bmk_" + rf));
      Files.writeString(bmk.resolve("agg_" + rf + ".json"), r.toString());
      all.add(r);
    }
    Files.createDirectories(dir.resolve("results_bmk"));
    Files.writeString(dir.resolve("results_bmk").resolve("agg_bmk.json"), all.toString());
    return dir;
  }

  @BeforeAll
  static void storeAndServer() throws Exception {
    store = ResultStore.open(StoreLocation.embedded(tmp.resolve("store").resolve("dash.mv.db")));
    store.ingest(runDir("r1", List.of(row("h200", "sglang", 4, 900, false), row("h200", "sglang", 8, 1500, false),
        row("h200", "sglang", 16, 2000, false), row("b200", "vllm", 4, 1200, false), row("b200", "vllm", 8, 2100, false))),
        IngestOptions.defaults().runId("101").date(D1));
    store.ingest(runDir("r2", List.of(row("h200", "sglang", 4, 910, false), row("h200", "sglang", 8, 1490, false),
        row("h200", "sglang", 16, 2010, false))), IngestOptions.defaults().runId("102").date(D2));
    // the last h200 conc-16 point was measured three times (infx run --repeat 3): 1,550, 1,600, 1,650
    ObjectNode repeated = io.infx.results.Repetitions.combine(List.of(row("h200", "sglang", 16, 1550, false),
        row("h200", "sglang", 16, 1600, false), row("h200", "sglang", 16, 1650, false)));
    store.ingest(runDir("r3", List.of(row("h200", "sglang", 4, 905, false), row("h200", "sglang", 8, 1510, false),
        repeated, row("b200", "vllm", 4, 1250, false), row("b200", "vllm", 8, 2150, false),
        row("h100", "sglang", 1, 300, true), row("h100", "sglang", 2, 550, true))),
        IngestOptions.defaults().runId("103").date(D3).allowSimulated(true));
    dashboard = Dashboard.start(store, "127.0.0.1", 0);
  }

  @AfterAll
  static void stop() {
    if (dashboard != null) {
      dashboard.close();
    }
    if (store != null) {
      store.close();
    }
  }

  static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(dashboard.url()).resolve(path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode json(String path) throws Exception {
    HttpResponse<String> r = get(path);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }

  @Test
  void endpointsAnswerInInferenceXAppsShape() throws Exception {
    assertThat(json("/api/v1/models")).extracting(JsonNode::asText).containsExactly("dsr1");
    JsonNode latest = json("/api/v1/benchmarks?model=dsr1");
    // newest run of every curve: h200 sglang (run 103, 3 points), b200 vllm (103, 2), SIMULATED h100 (103, 2)
    assertThat(latest).hasSize(7);
    JsonNode first = latest.get(0);
    for (String k : List.of("hardware", "framework", "model", "precision", "spec_method", "disagg", "is_multinode",
        "prefill_tp", "prefill_ep", "prefill_dp_attention", "prefill_num_workers", "decode_tp", "decode_ep",
        "decode_dp_attention", "decode_num_workers", "num_prefill_gpu", "num_decode_gpu", "isl", "osl", "conc",
        "image", "metrics", "date", "run_url")) {
      assertThat(first.has(k)).as("key " + k).isTrue();
    }
    assertThat(latest).filteredOn(r -> r.get("simulated").asBoolean()).hasSize(2)
        .allSatisfy(r -> assertThat(r.get("series").asText()).startsWith("SIMULATED "));
    // as of 2026-11-15: h200 from run 102 (3 points), b200 from run 101 (2 points), nothing simulated yet
    JsonNode mid = json("/api/v1/benchmarks?model=dsr1&date=2026-11-15");
    assertThat(mid).hasSize(5);
    assertThat(mid).filteredOn(r -> r.get("hardware").asText().startsWith("h200"))
        .allSatisfy(r -> assertThat(r.get("date").asText()).isEqualTo("2026-11-15"));
    assertThat(json("/api/v1/availability?model=dsr1").get("dates")).extracting(JsonNode::asText)
        .containsExactly("2026-11-01", "2026-11-15", "2026-12-01");
    String series = latest.get(0).get("series").asText();
    String h200 = "h200";
    JsonNode any = null;
    for (JsonNode r : latest) {
      if (r.get("hardware").asText().startsWith(h200) && r.get("conc").asInt() == 16) {
        any = r;
      }
    }
    assertThat(any).isNotNull();
    JsonNode history = json("/api/v1/history?model=dsr1&series=" + java.net.URLEncoder.encode(any.get("series").asText(),
        StandardCharsets.UTF_8) + "&isl=1024&osl=1024&conc=16&metric=tput_per_gpu");
    assertThat(history).extracting(h -> h.get("value").asDouble()).containsExactly(2000.0, 2010.0, 1600.0);
    assertThat(history).extracting(h -> h.get("regression").asBoolean()).containsExactly(false, false, true);
    // its interval: 1,600 ± t(0.975, 2) · 50 / √3 = 1,600 ± 124.2
    assertThat(history.get(2).get("ci_low").asDouble()).isCloseTo(1600 - 4.302653 * 50 / Math.sqrt(3),
        org.assertj.core.data.Offset.offset(1e-3));
    assertThat(history.get(2).get("ci_high").asDouble()).isCloseTo(1600 + 4.302653 * 50 / Math.sqrt(3),
        org.assertj.core.data.Offset.offset(1e-3));
    assertThat(history.get(0).has("ci_low")).as("a single measurement has no interval").isFalse();
    assertThat(series).isNotBlank();
    // the frontier over every real point of the latest snapshot: (62.5, 2,150) and (125, 1,250);
    // h200's (31.25, 1,600) is beaten by b200's conc 8 (more interactivity and more throughput)
    JsonNode pareto = json("/api/v1/pareto?model=dsr1");
    assertThat(pareto.get(DashboardData.ALL).toString()).isEqualTo("[[62.5,2150.0],[125.0,1250.0]]");
    assertThat(get("/api/v1/benchmarks?model=dsr1&date=yesterday").statusCode()).isEqualTo(400);
    assertThat(get("/api/v1/benchmarks").statusCode()).isEqualTo(400);
    HttpResponse<String> js = get("/assets/echarts.min.js");
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.body().length()).as("ECharts from the WebJar").isGreaterThan(500_000);
  }

  @Test
  void chromiumDrawsThePointsAndRedrawsOnAFilterChange() throws Exception {
    Optional<Path> chromium = locate();
    if (chromium.isEmpty() && "1".equals(System.getenv("INFX_REQUIRE_CHROMIUM"))) {
      throw new AssertionError("INFX_REQUIRE_CHROMIUM=1 (set by .ci/run) but no Chromium was found");
    }
    assumeTrue(chromium.isPresent(), "headless Chromium not found (chromium, chromium-browser, google-chrome on "
        + "PATH or $INFX_CHROMIUM); apt-get install -y chromium — .ci/run does");
    // first draw: latest snapshot (7 points); then the snapshot filter changes to 2026-11-15 (5 points)
    String url = dashboard.url() + "?model=dsr1&change=date:2026-11-15";
    Chromium dom = run(chromium.get(), "dom", List.of("--virtual-time-budget=20000", "--dump-dom", url));
    String status = element(dom.out(), "status");
    assertThat(attr(status, "data-ready")).as(dom.out()).isEqualTo("true");
    assertThat(attr(status, "data-first-points")).isEqualTo("7");
    assertThat(attr(status, "data-points")).isEqualTo("5");
    assertThat(attr(status, "data-redraws")).isEqualTo("2");
    assertThat(attr(status, "data-errors")).isNull();
    // frontiers as of 11-15: h200 · sglang, b200 · vllm, and all real configurations
    assertThat(attr(status, "data-frontiers")).as("frontier lines of multi-point groups").isEqualTo("3");
    assertThat(element(dom.out(), "errors")).as("errors the page caught").isEqualTo("<div id=\"errors\"></div>");
    assertThat(dom.err()).doesNotContain("Uncaught").doesNotContainPattern("CONSOLE\\(\\d+\\)\\] \"error");

    // the screenshot (CI artifact): latest snapshot with the simulated series and history of a regression
    Path shot = Path.of("target", "dashboard-screenshot.png").toAbsolutePath();
    Files.createDirectories(shot.getParent());
    run(chromium.get(), "shot", List.of("--virtual-time-budget=20000", "--window-size=1400,1200",
        "--screenshot=" + shot, dashboard.url() + "?model=dsr1"));
    BufferedImage img = ImageIO.read(shot.toFile());
    assertThat(img).isNotNull();
    assertThat(img.getWidth()).isEqualTo(1400);
    assertThat(colouredPixels(img, 0x0072B2)).as("pixels of the first series' colour").isGreaterThan(300);
  }

  private record Chromium(String out, String err) {}

  private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu",
      "--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync",
      "--disable-extensions", "--force-color-profile=srgb", "--hide-scrollbars", "--mute-audio",
      "--enable-logging=stderr", "--v=0");

  private static Chromium run(Path chromium, String name, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(chromium.toString());
    cmd.addAll(FLAGS);
    cmd.add("--user-data-dir=" + Files.createTempDirectory(tmp, "profile-" + name));
    cmd.addAll(args);
    Path out = tmp.resolve(name + ".out");
    Path err = tmp.resolve(name + ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("Chromium did not finish within 180 s: " + cmd);
    }
    String e = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("Chromium exit status; stderr:\n" + e).isZero();
    return new Chromium(Files.readString(out, StandardCharsets.UTF_8), e);
  }

  private static String element(String dom, String id) {
    Matcher m = Pattern.compile("<div id=\"" + id + "\"[^>]*>(.*?)</div>", Pattern.DOTALL).matcher(dom);
    assertThat(m.find()).as("element #" + id + " in the DOM").isTrue();
    return m.group();
  }

  private static String attr(String element, String name) {
    Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(element);
    return m.find() ? m.group(1) : null;
  }

  private static long colouredPixels(BufferedImage img, int rgb) {
    long n = 0;
    int r = rgb >> 16 & 0xff;
    int g = rgb >> 8 & 0xff;
    int b = rgb & 0xff;
    for (int y = 0; y < img.getHeight(); y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        int p = img.getRGB(x, y);
        if (Math.abs((p >> 16 & 0xff) - r) < 30 && Math.abs((p >> 8 & 0xff) - g) < 30 && Math.abs((p & 0xff) - b) < 30) {
          n++;
        }
      }
    }
    return n;
  }

  private static Optional<Path> locate() {
    String override = System.getenv("INFX_CHROMIUM");
    if (override != null && !override.isBlank()) {
      Path p = Path.of(override);
      return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
        Path p = Path.of(d.isEmpty() ? "." : d, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }
}
