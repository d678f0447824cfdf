package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A row's model key and GPU key, resolved with the reference's skip accounting: an unresolved
 * model counts {@code unmappedModel} and records the raw name, an unresolved {@code hw} counts
 * {@code unmappedHw} and records the raw value (empty names are counted but not recorded). The one
 * home of that rule for the benchmark, eval and aggregate-eval mappers.
 */
record ModelAndGpu(String modelKey, String gpuKey) {

  /**
   * @param row the row or eval meta whose {@code hw} and model fields are read
   * @param rawModel the name recorded as unmapped when the model does not resolve (the mappers of
   *     the reference differ here: benchmark and eval rows prefer {@code infmax_model_prefix},
   *     aggregate eval rows use {@code model})
   * @return both keys, or empty when either is unmapped (counted in {@code tracker})
   */
  static Optional<ModelAndGpu> resolve(JsonNode row, Supplier<String> rawModel, SkipTracker tracker) {
    Optional<String> modelKey = Normalizers.resolveModelKey(row);
    if (modelKey.isEmpty()) {
      tracker.inc(SkipTracker.Skip.unmappedModel);
      String raw = rawModel.get();
      if (!raw.isEmpty()) {
        tracker.addUnmappedModel(raw);
      }
      return Optional.empty();
    }
    String hwRaw = Js.string(Js.coalesce(Js.get(row, "hw"), Js.nodes().textNode("")));
    Optional<String> gpuKey = Normalizers.hwToGpuKey(hwRaw);
    if (gpuKey.isEmpty()) {
      tracker.inc(SkipTracker.Skip.unmappedHw);
      if (!hwRaw.isEmpty()) {
        tracker.addUnmappedHw(hwRaw);
      }
      return Optional.empty();
    }
    return Optional.of(new ModelAndGpu(modelKey.get(), gpuKey.get()));
  }

  /** The raw model name of benchmark and eval rows: {@code infmax_model_prefix}, else {@code model}. */
  static String prefixOrModel(JsonNode row) {
    return Js.string(Js.coalesce(Js.coalesce(Js.get(row, "infmax_model_prefix"), Js.get(row, "model")),
        Js.nodes().textNode("")));
  }
}
