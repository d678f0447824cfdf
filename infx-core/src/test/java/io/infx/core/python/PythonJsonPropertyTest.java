package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import org.junit.jupiter.api.Test;

class PythonJsonPropertyTest {

  @Test
  void floatReprRoundTripsAndStaysAJsonFloat() {
    qt().withExamples(20_000)
        .forAll(longs().all().map(Double::longBitsToDouble))
        .assuming(Double::isFinite)
        .checkAssert(d -> {
          String text = PythonJson.floatRepr(d);
          assertThat(Double.parseDouble(text)).as(text).isEqualTo(d);
          JsonNode parsed = readUnchecked(text);
          assertThat(parsed.isFloatingPointNumber()).as("%s parses as a float", text).isTrue();
        });
  }

  private static JsonNode readUnchecked(String text) {
    try {
      return Json.mapper().readTree(text);
    } catch (Exception e) {
      throw new AssertionError(text, e);
    }
  }
}
