package io.infx.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.store.LatestPoint;
import io.infx.store.PointQuery;
import io.infx.store.ResultStore;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * {@code infx dashboard}: a web page over a results store, served by Javalin on loopback. The page
 * and ECharts ({@code org.webjars.npm:echarts}, from the jar — no network) draw throughput per GPU
 * against interactivity (or end-to-end latency) per configuration with the Pareto frontier per
 * hardware × framework, for the newest snapshot or any earlier date; latency against concurrency;
 * a point's history with its confidence interval and regressions flagged. Simulated points are
 * drawn hollow and named SIMULATED.
 *
 * <p>JSON endpoints in InferenceX-app's shape: {@code GET /api/v1/benchmarks?model=M[&date=YYYY-MM-DD]
 * [&isl=&osl=&precision=]} (rows: the 17 config columns, isl, osl, conc, image, metrics, date,
 * run_url, plus simulated, series, group), {@code /api/v1/availability?model=M},
 * {@code /api/v1/history?model=M&series=S&isl=&osl=&conc=&metric=K}, {@code /api/v1/pareto?model=M…},
 * {@code /api/v1/models}. Bad parameters answer 400 with {@code {"error": …}}.
 *
 * <pre>{@code
 * try (ResultStore store = ResultStore.open(StoreLocation.parse("results.mv.db"));
 *      Dashboard d = Dashboard.start(store, "127.0.0.1", 0)) {
 *   System.out.println(d.url());
 * }
 * }</pre>
 */
public final class Dashboard implements AutoCloseable {

  private static final String ECHARTS = "/META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";

  private final Javalin app;
  private final String host;

  private Dashboard(Javalin app, String host) {
    this.app = app;
    this.host = host;
  }

  /**
   * Starts serving {@code store} on {@code host:port} (0: an ephemeral port).
   *
   * @throws IllegalStateException when the port cannot be bound
   */
  public static Dashboard start(ResultStore store, String host, int port) {
    Javalin app = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.startup.showOldJavalinVersionWarning = false;
      cfg.routes.get("/", ctx -> resource(ctx, "/io/infx/dashboard/index.html", "text/html; charset=utf-8"));
      cfg.routes.get("/dashboard.js", ctx -> resource(ctx, "/io/infx/dashboard/dashboard.js",
          "text/javascript; charset=utf-8"));
      cfg.routes.get("/assets/echarts.min.js", ctx -> resource(ctx, ECHARTS, "text/javascript; charset=utf-8"));
      cfg.routes.get("/api/v1/models", ctx -> json(ctx, models(store)));
      cfg.routes.get("/api/v1/benchmarks", ctx -> json(ctx, DashboardData.rows(snapshot(store, ctx))));
      cfg.routes.get("/api/v1/pareto", ctx -> json(ctx, DashboardData.frontiers(snapshot(store, ctx))));
      cfg.routes.get("/api/v1/availability", ctx -> json(ctx, DashboardData.availability(all(store, ctx))));
      cfg.routes.get("/api/v1/history", ctx -> json(ctx, DashboardData.history(all(store, ctx),
          required(ctx, "series"), integer(ctx, "isl"), integer(ctx, "osl"), integer(ctx, "conc"),
          Optional.ofNullable(ctx.queryParam("metric")).orElse("tput_per_gpu"))));
      cfg.routes.exception(BadRequest.class, (e, ctx) -> {
        ObjectNode o = Json.mapper().createObjectNode().put("error", e.getMessage());
        ctx.status(HttpStatus.BAD_REQUEST).contentType("application/json").result(o.toString());
      });
    });
    app.start(host, port);
    return new Dashboard(app, host);
  }

  /** The port served. */
  public int port() {
    return app.port();
  }

  /** The page's URL, e.g. {@code http://127.0.0.1:18800/}. */
  public String url() {
    return "http://" + host + ":" + port() + "/";
  }

  @Override
  public void close() {
    app.stop();
  }

  private static final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadRequest(String message) {
      super(message);
    }
  }

  private static ArrayNode models(ResultStore store) {
    ArrayNode a = Json.mapper().createArrayNode();
    store.models().forEach(a::add);
    return a;
  }

  private static List<LatestPoint> all(ResultStore store, Context ctx) {
    PointQuery q = PointQuery.model(required(ctx, "model"));
    if (ctx.queryParam("isl") != null && ctx.queryParam("osl") != null) {
      q = q.islOsl(integer(ctx, "isl"), integer(ctx, "osl"));
    }
    String precision = ctx.queryParam("precision");
    if (precision != null && !precision.isBlank()) {
      q = q.precision(precision);
    }
    return store.allPoints(q);
  }

  private static List<LatestPoint> snapshot(ResultStore store, Context ctx) {
    String date = ctx.queryParam("date");
    Optional<LocalDate> d;
    try {
      d = date == null || date.isBlank() || date.equals("latest") ? Optional.empty() : Optional.of(LocalDate.parse(date));
    } catch (DateTimeParseException e) {
      throw new BadRequest("date must be YYYY-MM-DD or latest, got '" + date + "'");
    }
    return DashboardData.asOf(all(store, ctx), d);
  }

  private static String required(Context ctx, String name) {
    String v = ctx.queryParam(name);
    if (v == null || v.isBlank()) {
      throw new BadRequest("missing query parameter '" + name + "'");
    }
    return v;
  }

  private static int integer(Context ctx, String name) {
    String v = required(ctx, name);
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new BadRequest(name + " must be an integer, got '" + v + "'");
    }
  }

  private static void json(Context ctx, JsonNode body) {
    ctx.contentType("application/json").result(body.toString());
  }

  private static void resource(Context ctx, String path, String type) {
    try (InputStream in = Dashboard.class.getResourceAsStream(path)) {
      if (in == null) {
        ctx.status(HttpStatus.NOT_FOUND).result("not found");
        return;
      }
      ctx.contentType(type).result(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
