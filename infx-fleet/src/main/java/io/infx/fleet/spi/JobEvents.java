package io.infx.fleet.spi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.io.AtomicFiles;
import io.infx.core.secret.Redactor;
import io.infx.core.json.Json;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The record of one launch, written as {@code job_event.json}: identity (run, point, runner, job
 * id…), per-stage timings, the outcome, and the <em>first</em> error with its class and whether a
 * retry may help (newer reference design, fleet spec §8). Later errors never overwrite the first:
 * it is usually the cause, the rest are consequences. Thread-safe.
 */
public final class JobEvents {

  /** The first error of a launch. */
  public record Failure(String stage, FailureKind kind, String message, int exitCode, boolean retriable,
      String evidence) { }

  /** One timed stage. */
  public record Stage(String name, Instant started, long millis, boolean ok) { }

  private final Clock clock;
  private final Map<String, Object> identity = new LinkedHashMap<>();
  private final List<Stage> stages = new ArrayList<>();
  private Failure firstError;
  private String outcome = "running";
  private Integer exitCode;
  private Redactor redactor = Redactor.forProcess();

  public JobEvents() {
    this(Clock.systemUTC());
  }

  public JobEvents(Clock clock) {
    this.clock = clock;
  }

  /**
   * Masks the run's secrets in every failure message and evidence recorded from now on (default:
   * the secret-looking variables of this process's environment and credential shapes).
   */
  public synchronized JobEvents redactWith(Redactor redactor) {
    this.redactor = java.util.Objects.requireNonNull(redactor, "redactor");
    return this;
  }

  /** Adds an identity field (string, number or boolean; lists allowed). */
  public synchronized JobEvents identity(String key, Object value) {
    identity.put(key, value);
    return this;
  }

  /**
   * Runs {@code body} as stage {@code name}, timing it; an exception is recorded as this stage's
   * failure (unless an earlier one exists) and rethrown.
   */
  public <T> T stage(String name, Callable<T> body) throws Exception {
    try {
      return timed(name, body);
    } catch (Exception e) {
      boolean retriable = e instanceof BackendException be && be.retriable();
      fail(name, retriable ? FailureKind.SCHEDULER : FailureKind.INTERNAL, String.valueOf(e.getMessage()), 1,
          retriable, "");
      throw e;
    }
  }

  /** Runs {@code body} as stage {@code name}, timing it, without recording a failure. */
  public <T> T timed(String name, Callable<T> body) throws Exception {
    Instant start = clock.instant();
    long t0 = System.nanoTime();
    boolean ok = false;
    try {
      T v = body.call();
      ok = true;
      return v;
    } finally {
      synchronized (this) {
        stages.add(new Stage(name, start, (System.nanoTime() - t0) / 1_000_000, ok));
      }
    }
  }

  /** Runs a stage that returns nothing. */
  public void run(String name, CheckedRunnable body) throws Exception {
    stage(name, () -> {
      body.run();
      return null;
    });
  }

  /** A body that may throw. */
  @FunctionalInterface
  public interface CheckedRunnable {
    void run() throws Exception;
  }

  /** Records a failure; ignored when one was recorded before (the first error wins). */
  public synchronized void fail(String stage, FailureKind kind, String message, int exitCode, boolean retriable,
      String evidence) {
    if (firstError == null) {
      // failure texts quote server output, which may echo a token
      firstError = new Failure(stage, kind, redactor.redact(message), exitCode, retriable,
          redactor.redact(evidence));
    }
  }

  /** Records a failure with its class's default retriability. */
  public void fail(String stage, FailureKind kind, String message, int exitCode) {
    fail(stage, kind, message, exitCode, kind.retriable(), "");
  }

  public synchronized Optional<Failure> firstError() {
    return Optional.ofNullable(firstError);
  }

  public synchronized List<Stage> stages() {
    return List.copyOf(stages);
  }

  /** Sets the final outcome ({@code succeeded}, {@code failed}, {@code cancelled}, {@code timed_out}). */
  public synchronized void finish(String outcome, int exitCode) {
    this.outcome = outcome;
    this.exitCode = exitCode;
  }

  public synchronized ObjectNode toJson() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("schema_version", 1);
    root.set("identity", Json.mapper().valueToTree(identity));
    ArrayNode st = root.putArray("stages");
    for (Stage s : stages) {
      ObjectNode o = st.addObject();
      o.put("name", s.name());
      o.put("started", s.started().toString());
      o.put("duration_ms", s.millis());
      o.put("ok", s.ok());
    }
    root.put("outcome", outcome);
    if (exitCode == null) {
      root.putNull("exit_code");
    } else {
      root.put("exit_code", exitCode);
    }
    if (firstError == null) {
      root.putNull("error");
    } else {
      ObjectNode e = root.putObject("error");
      e.put("stage", firstError.stage());
      e.put("type", firstError.kind().name().toLowerCase(java.util.Locale.ROOT));
      e.put("message", firstError.message());
      e.put("exit_code", firstError.exitCode());
      e.put("retriable", firstError.retriable());
      e.put("evidence", firstError.evidence());
    }
    return root;
  }

  /** Writes {@link #toJson()} atomically. */
  public void write(Path file) {
    ObjectNode json = toJson();
    AtomicFiles.write(file, out -> {
      out.write(Json.pretty().writeValueAsBytes(json));
      out.write('\n');
    });
  }
}
