package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The conditions a measurement was made under, as the infx client records them in the raw
 * result's {@code infx} extension: host load per core ({@code infx.client.host_load_average} /
 * {@code available_processors}, the 1-minute load average when the run ended) and client overhead
 * (p99 send lateness in ms, {@code infx.latency_views_in_milliseconds.send_lateness.p99}: how late
 * the client sent requests against its schedule). Two runs whose conditions differ much are
 * flagged by the comparability lint: a busy host or a saturated client moves every number.
 *
 * @param hostLoadPerCore load average divided by the cores the client saw; empty when not recorded
 * @param sendLatenessP99Ms p99 send lateness, ms; empty when not recorded
 */
public record RunConditions(OptionalDouble hostLoadPerCore, OptionalDouble sendLatenessP99Ms) {

  /** Host load differences below this (runnable threads per core) are never flagged. */
  public static final double LOAD_TOLERANCE = 0.5;

  /** Send-lateness differences below this (ms) are never flagged. */
  public static final double LATENESS_TOLERANCE_MS = 1.0;

  /** Reads the conditions of a raw result; absent values stay empty. */
  public static RunConditions of(JsonNode raw) {
    JsonNode x = raw == null ? null : raw.get("infx");
    if (x == null || !x.isObject()) {
      return new RunConditions(OptionalDouble.empty(), OptionalDouble.empty());
    }
    JsonNode load = x.at("/client/host_load_average");
    JsonNode cpus = x.at("/client/available_processors");
    OptionalDouble perCore = load.isNumber() && cpus.isNumber() && cpus.doubleValue() > 0
        ? OptionalDouble.of(load.doubleValue() / cpus.doubleValue()) : OptionalDouble.empty();
    JsonNode late = x.at("/latency_views_in_milliseconds/send_lateness/p99");
    return new RunConditions(perCore, late.isNumber() ? OptionalDouble.of(late.doubleValue()) : OptionalDouble.empty());
  }

  /** The conditions of the raw file at {@code path}; empty when it cannot be read. */
  public static Optional<RunConditions> read(Path path) {
    try {
      return Optional.of(of(ResultProcessor.readRaw(path)));
    } catch (ResultsException e) {
      return Optional.empty();
    }
  }

  /**
   * Conditions that differ enough to doubt a comparison: host load per core apart by more than
   * {@link #LOAD_TOLERANCE} and by more than half of the larger; p99 send lateness apart by more
   * than {@link #LATENESS_TOLERANCE_MS} and more than twofold.
   */
  public List<String> differences(RunConditions other) {
    List<String> out = new ArrayList<>();
    if (hostLoadPerCore.isPresent() && other.hostLoadPerCore.isPresent()) {
      double a = hostLoadPerCore.getAsDouble();
      double b = other.hostLoadPerCore.getAsDouble();
      if (Math.abs(a - b) > LOAD_TOLERANCE && Math.abs(a - b) > 0.5 * Math.max(a, b)) {
        out.add(String.format(Locale.ROOT, "host load %.2f vs %.2f per core", a, b));
      }
    }
    if (sendLatenessP99Ms.isPresent() && other.sendLatenessP99Ms.isPresent()) {
      double a = sendLatenessP99Ms.getAsDouble();
      double b = other.sendLatenessP99Ms.getAsDouble();
      if (Math.abs(a - b) > LATENESS_TOLERANCE_MS && Math.max(a, b) > 2 * Math.min(a, b)) {
        out.add(String.format(Locale.ROOT, "client overhead (p99 send lateness) %.1f vs %.1f ms", a, b));
      }
    }
    return out;
  }
}
