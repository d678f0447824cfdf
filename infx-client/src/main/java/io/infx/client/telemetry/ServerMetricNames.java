package io.infx.client.telemetry;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the serving engines call the quantities infx reads from their {@code /metrics}: one table
 * per engine, every name the engine's own (sources below), looked up in order (the first name a
 * scrape has wins; an engine renamed some between versions).
 *
 * <ul>
 *   <li><b>vLLM</b> ({@code vllm:} prefix; docs "Production Metrics"): prompt/generation tokens,
 *       {@code request_success_total}, running/waiting requests, KV-cache usage
 *       ({@code kv_cache_usage_perc}, formerly {@code gpu_cache_usage_perc}, a fraction 0–1),
 *       prefix-cache hits/queries (tokens).
 *   <li><b>SGLang</b> ({@code sglang:}): tokens, {@code num_requests_total}, {@code num_running_reqs},
 *       {@code num_queue_reqs}, {@code token_usage} (fraction), {@code cached_tokens_total} against
 *       prompt tokens, {@code cache_hit_rate}.
 *   <li><b>TensorRT-LLM</b> ({@code trtllm_}, or {@code trtllm:} behind Dynamo): tokens,
 *       {@code request_success_total}, {@code kv_cache_utilization}, {@code kv_cache_hit_rate},
 *       {@code prompt_cached_tokens_total} — the names InferenceX-app's adapter reads
 *       ({@code etl/agentx-server-metrics/trtllm.ts}); it exports no queue length.
 *   <li><b>llama.cpp</b> ({@code llama-server --metrics}, {@code llamacpp:}):
 *       {@code prompt_tokens_total} counts only the prompt tokens it <em>processed</em>, so the
 *       prompt total is that plus {@code prompt_tokens_cached_total} (newer builds; without it the
 *       prompt count is not comparable); {@code tokens_predicted_total}; {@code requests_processing}
 *       / {@code requests_deferred}; {@code kv_cache_usage_ratio} (older builds). It has no request
 *       counter.
 * </ul>
 */
public final class ServerMetricNames {

  private ServerMetricNames() {}

  /** The serving engine whose names a scrape carries. */
  public enum Engine {
    VLLM("vllm"), SGLANG("sglang"), TRTLLM("trtllm"), LLAMACPP("llama.cpp"), UNKNOWN("unknown");

    private final String label;

    Engine(String label) {
      this.label = label;
    }

    /** {@code vllm}, {@code sglang}, {@code trtllm}, {@code llama.cpp} or {@code unknown}. */
    public String label() {
      return label;
    }

    /** The engine of a label written by {@link #label()}; UNKNOWN otherwise. */
    public static Engine ofLabel(String label) {
      for (Engine e : values()) {
        if (e.label.equals(label)) {
          return e;
        }
      }
      return UNKNOWN;
    }
  }

  /** A quantity infx reads, and whether it is a counter (read as a delta over the window) or a gauge. */
  public enum Quantity {
    /** Prompt tokens the server counted (counter, tokens). */
    PROMPT_TOKENS(true),
    /** Generated tokens (counter, tokens). */
    GENERATION_TOKENS(true),
    /** Requests finished successfully (counter). */
    REQUESTS_COMPLETED(true),
    /** Requests being processed now (gauge). */
    REQUESTS_RUNNING(false),
    /** Requests queued, waiting for a slot (gauge): the server-side queue length. */
    REQUESTS_WAITING(false),
    /** Fraction of the KV cache in use, 0–1 (gauge). */
    KV_CACHE_USAGE(false),
    /** Prompt tokens served from the prefix cache (counter, tokens). */
    PREFIX_CACHE_HITS(true),
    /** Prompt tokens looked up in the prefix cache (counter, tokens). */
    PREFIX_CACHE_QUERIES(true),
    /** The engine's own prefix-cache hit rate, 0–1 (gauge), where it exports no hit/query counters. */
    PREFIX_CACHE_HIT_RATE(false);

    private final boolean counter;

    Quantity(boolean counter) {
      this.counter = counter;
    }

    public boolean counter() {
      return counter;
    }

    /** The snake-case name used in files and the store, e.g. {@code generation_tokens}. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How a quantity is read: the sum of {@code terms}, each term the first of its names present in
   * the scrape (every series of that name summed over its labels); the quantity is absent when a
   * term is. {@code percent}: the engine exports 0–100, divided by 100.
   */
  public record Reading(List<List<String>> terms, boolean percent) {
    public Reading {
      terms = terms.stream().map(List::copyOf).toList();
    }

    static Reading of(String... names) {
      return new Reading(List.of(List.of(names)), false);
    }

    static Reading sum(List<String> a, List<String> b) {
      return new Reading(List.of(a, b), false);
    }
  }

  private static final Map<Engine, Map<Quantity, Reading>> TABLE = Map.of(
      Engine.VLLM, Map.of(
          Quantity.PROMPT_TOKENS, Reading.of("vllm:prompt_tokens_total"),
          Quantity.GENERATION_TOKENS, Reading.of("vllm:generation_tokens_total"),
          Quantity.REQUESTS_COMPLETED, Reading.of("vllm:request_success_total"),
          Quantity.REQUESTS_RUNNING, Reading.of("vllm:num_requests_running"),
          Quantity.REQUESTS_WAITING, Reading.of("vllm:num_requests_waiting"),
          Quantity.KV_CACHE_USAGE, Reading.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"),
          Quantity.PREFIX_CACHE_HITS, Reading.of("vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"),
          Quantity.PREFIX_CACHE_QUERIES, Reading.of("vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"),
          Quantity.PREFIX_CACHE_HIT_RATE, Reading.of("vllm:gpu_prefix_cache_hit_rate")),
      Engine.SGLANG, Map.of(
          Quantity.PROMPT_TOKENS, Reading.of("sglang:prompt_tokens_total"),
          Quantity.GENERATION_TOKENS, Reading.of("sglang:generation_tokens_total"),
          Quantity.REQUESTS_COMPLETED, Reading.of("sglang:num_requests_total"),
          Quantity.REQUESTS_RUNNING, Reading.of("sglang:num_running_reqs"),
          Quantity.REQUESTS_WAITING, Reading.of("sglang:num_queue_reqs"),
          Quantity.KV_CACHE_USAGE, Reading.of("sglang:token_usage"),
          Quantity.PREFIX_CACHE_HITS, Reading.of("sglang:cached_tokens_total"),
          Quantity.PREFIX_CACHE_QUERIES, Reading.of("sglang:prompt_tokens_total"),
          Quantity.PREFIX_CACHE_HIT_RATE, Reading.of("sglang:cache_hit_rate")),
      Engine.TRTLLM, Map.of(
          Quantity.PROMPT_TOKENS, Reading.of("trtllm_prompt_tokens_total", "trtllm:prompt_tokens_total"),
          Quantity.GENERATION_TOKENS, Reading.of("trtllm_generation_tokens_total", "trtllm:generation_tokens_total"),
          Quantity.REQUESTS_COMPLETED, Reading.of("trtllm_request_success_total", "trtllm:request_success_total"),
          Quantity.KV_CACHE_USAGE, Reading.of("trtllm_kv_cache_utilization", "trtllm:kv_cache_utilization"),
          Quantity.PREFIX_CACHE_HITS, Reading.of("trtllm_prompt_cached_tokens_total", "trtllm:prompt_cached_tokens_total"),
          Quantity.PREFIX_CACHE_QUERIES, Reading.of("trtllm_prompt_tokens_total", "trtllm:prompt_tokens_total"),
          Quantity.PREFIX_CACHE_HIT_RATE, Reading.of("trtllm_kv_cache_hit_rate", "trtllm:kv_cache_hit_rate")),
      Engine.LLAMACPP, Map.of(
          Quantity.PROMPT_TOKENS, Reading.sum(List.of("llamacpp:prompt_tokens_total"),
              List.of("llamacpp:prompt_tokens_cached_total")),
          Quantity.GENERATION_TOKENS, Reading.of("llamacpp:tokens_predicted_total"),
          Quantity.REQUESTS_RUNNING, Reading.of("llamacpp:requests_processing"),
          Quantity.REQUESTS_WAITING, Reading.of("llamacpp:requests_deferred"),
          Quantity.KV_CACHE_USAGE, Reading.of("llamacpp:kv_cache_usage_ratio"),
          Quantity.PREFIX_CACHE_HITS, Reading.of("llamacpp:prompt_tokens_cached_total"),
          Quantity.PREFIX_CACHE_QUERIES, Reading.sum(List.of("llamacpp:prompt_tokens_total"),
              List.of("llamacpp:prompt_tokens_cached_total"))));

  /** The recipe of a quantity for an engine; empty when the engine exports none. */
  public static Optional<Reading> recipe(Engine engine, Quantity q) {
    return Optional.ofNullable(TABLE.getOrDefault(engine, Map.of()).get(q));
  }

  /** The engine whose prefix a metric name carries; UNKNOWN for others (DCGM, process metrics…). */
  public static Engine engineOf(String metricName) {
    if (metricName.startsWith("vllm:")) {
      return Engine.VLLM;
    }
    if (metricName.startsWith("sglang:")) {
      return Engine.SGLANG;
    }
    if (metricName.startsWith("trtllm_") || metricName.startsWith("trtllm:")) {
      return Engine.TRTLLM;
    }
    if (metricName.startsWith("llamacpp:")) {
      return Engine.LLAMACPP;
    }
    return Engine.UNKNOWN;
  }

  /** Every metric name some recipe of the engine reads (the series a compact log keeps samples of). */
  public static java.util.Set<String> namesOf(Engine engine) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    TABLE.getOrDefault(engine, Map.of()).values().forEach(r -> r.terms().forEach(out::addAll));
    return out;
  }
}
