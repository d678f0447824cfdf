package io.infx.store;

import java.util.Map;

/**
 * One server {@code /metrics} series of a stored infx point over its measured window
 * ({@code server_metric_series}).
 *
 * @param id the row id ({@link ResultStore#serverSamples(long)} reads its samples, kept for the series
 *     infx reads)
 * @param endpoint the scraped URL
 * @param engine {@code vllm}, {@code sglang}, {@code trtllm}, {@code llama.cpp} or {@code unknown}
 * @param metric the Prometheus metric name, e.g. {@code vllm:num_requests_waiting}
 * @param labels its labels
 * @param kind {@code counter} or {@code gauge}
 * @param quantity what infx reads it as ({@code generation_tokens}, {@code requests_waiting},
 *     {@code kv_cache_usage}, …), or null
 * @param first value at the window's start (null: not seen in the window)
 * @param last value at its end
 * @param delta counters: the increase over the window; gauges: null
 * @param min lowest value in the window
 * @param max highest
 * @param mean mean over the window's scrapes
 * @param samples scrapes in the window that had the series
 */
public record ServerMetricSeries(long id, String endpoint, String engine, String metric, Map<String, String> labels,
    String kind, String quantity, Double first, Double last, Double delta, Double min, Double max, Double mean,
    long samples) {

  public ServerMetricSeries {
    labels = Map.copyOf(labels);
  }
}
