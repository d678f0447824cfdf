package io.infx.store;

import io.infx.store.mapping.ConfigParams;
import java.time.LocalDate;

/**
 * One value of a point's metric in one run.
 *
 * @param date the run's date
 * @param runId the run's id
 * @param config the configuration
 * @param isl input sequence length in tokens (null for agentic rows)
 * @param osl output sequence length in tokens (null for agentic rows)
 * @param conc concurrency
 * @param metric the metric's name
 * @param value its value, or null when the row lacks it
 * @param simulated whether the row is simulated
 * @param latest whether the row is in the latest view
 */
public record HistoryEntry(LocalDate date, String runId, ConfigParams config, Integer isl, Integer osl, int conc,
    String metric, Double value, boolean simulated, boolean latest) {}
