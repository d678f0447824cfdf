package io.infx.store;

import java.time.LocalDate;

/**
 * One stored run (only the highest attempt of each run id is listed).
 *
 * @param runId the run's id
 * @param runAttempt its attempt
 * @param source {@code github}, {@code infx} or {@code directory}
 * @param date the run's date
 * @param name the run's name, or null
 * @param url the run's URL, or null
 * @param appendOnly whether the run extends the previous snapshot of its curves
 * @param benchmarkRows stored benchmark rows
 * @param simulatedRows of which simulated
 * @param evalRows stored eval rows
 */
public record RunSummary(String runId, int runAttempt, String source, LocalDate date, String name, String url,
    boolean appendOnly, long benchmarkRows, long simulatedRows, long evalRows) {}
