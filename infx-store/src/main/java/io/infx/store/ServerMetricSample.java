package io.infx.store;

import java.time.Instant;

/** One scrape's value of a server series; {@code inWindow} false for warm-up and settle scrapes. */
public record ServerMetricSample(Instant sampledAt, boolean inWindow, double value) {}
