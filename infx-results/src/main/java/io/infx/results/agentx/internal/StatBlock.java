package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;

/**
 * The reference's stat block over a non-empty sample: mean, p50, p75, p90, p95 and population std
 * (no min/max/p99). Values are unrounded; the aggregate is rounded once at the end.
 */
public record StatBlock(Number mean, double p50, double p75, double p90, double p95, double std) {

  /** Stat block of doubles; the input is not modified. */
  public static StatBlock of(double[] values) {
    return from(values, AggregateStats.mean(values), AggregateStats.pstdev(values));
  }

  /** Stat block of integers (token counts): an integral mean stays an integer. */
  public static StatBlock ofIntegers(long[] values) {
    return from(Arrays.stream(values).asDoubleStream().toArray(), AggregateStats.meanOfIntegers(values),
        AggregateStats.pstdev(values));
  }

  private static StatBlock from(double[] values, Number mean, double std) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return new StatBlock(mean, AggregateStats.percentile(sorted, 50), AggregateStats.percentile(sorted, 75),
        AggregateStats.percentile(sorted, 90), AggregateStats.percentile(sorted, 95), std);
  }

  /** {@code {mean, p50, p75, p90, p95, std}}. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    if (mean instanceof Long l) {
      o.put("mean", l);
    } else {
      o.put("mean", mean.doubleValue());
    }
    o.put("p50", p50);
    o.put("p75", p75);
    o.put("p90", p90);
    o.put("p95", p95);
    o.put("std", std);
    return o;
  }
}
