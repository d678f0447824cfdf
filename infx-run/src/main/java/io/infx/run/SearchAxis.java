package io.infx.run;

import java.util.Locale;

/** What a search varies: the client's concurrency (closed loop) or its request rate (open loop). */
public enum SearchAxis {
  /** Requests in flight ({@code --max-concurrency}), a whole number: the matrix rows' {@code conc}. */
  CONCURRENCY("conc", ""),
  /** Requests per second (Poisson arrivals, {@code --request-rate}), with the configuration's concurrency as the cap. */
  REQUEST_RATE("rate", " req/s");

  private final String name;
  private final String unit;

  SearchAxis(String name, String unit) {
    this.name = name;
    this.unit = unit;
  }

  /** {@code conc} or {@code rate}, as {@code infx search --by} takes it. */
  public String label() {
    return name;
  }

  /** {@code conc 16}, {@code rate 2.5 req/s}. */
  public String describe(double load) {
    return name + " " + format(load) + unit;
  }

  /** {@code 16}, {@code 2.5}: a whole load without decimals. */
  public static String format(double load) {
    return load == Math.rint(load) && Math.abs(load) < 1e15 ? Long.toString((long) load)
        : String.format(Locale.ROOT, "%.4g", load).replaceAll("(\\.\\d*?)0+$", "$1").replaceAll("\\.$", "");
  }

  /** The axis {@code infx search --by} names: {@code conc} (or {@code concurrency}), {@code rate}. */
  public static SearchAxis parse(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "conc", "concurrency" -> CONCURRENCY;
      case "rate", "request-rate" -> REQUEST_RATE;
      default -> throw new io.infx.core.UsageException("unknown search axis '" + s + "': conc or rate");
    };
  }
}
