package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Python number parsing the normalizer reproduces, checked against outputs recorded from CPython
 * 3.11 ({@code src/test/resources/python/}: {@code int(str)}, {@code float(str)}).
 */
class PythonParsingTest {

  private static String resource(String name) throws IOException {
    try (InputStream in = PythonParsingTest.class.getResourceAsStream("/python/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static double fromHex(String hex) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
  }

  @Test
  void intParsingMatchesPythonInt() throws IOException {
    JsonNode cases = Json.mapper().readTree(resource("int-parse.json"));
    assertThat(cases.size()).isGreaterThan(15);
    for (JsonNode c : cases) {
      String input = c.get("input").textValue();
      PythonNumbers.Conversion<Integer> got = PythonNumbers.parseInt(input);
      if (c.has("int")) {
        assertThat(got.value()).as("int(%s)", input).contains(c.get("int").intValue());
      } else {
        assertThat(got.ok()).as("int(%s) must fail", input).isFalse();
        assertThat(got.problem()).isEqualTo(c.get("int_error").textValue());
      }
    }
  }

  @Test
  void floatParsingMatchesPythonFloat() throws IOException {
    JsonNode cases = Json.mapper().readTree(resource("float-parse.json"));
    for (JsonNode c : cases) {
      String input = c.get("input").textValue();
      PythonNumbers.Conversion<Double> got = PythonNumbers.toFloat(TextNode.valueOf(input));
      if (c.has("float_hex")) {
        double want = fromHex(c.get("float_hex").textValue());
        assertThat(got.ok()).as("float(%s): %s", input, got.problem()).isTrue();
        assertThat(HexFormat.of().toHexDigits(Double.doubleToRawLongBits(got.value().get())))
            .as("float(%s)", input)
            .isEqualTo(HexFormat.of().toHexDigits(Double.doubleToRawLongBits(want)));
      } else {
        assertThat(got.ok()).as("float(%s) must fail", input).isFalse();
        assertThat(got.problem()).isEqualTo(c.get("float_error").textValue());
      }
    }
  }

  @Test
  void jsonValuesConvertLikePythonFloatAndInt() throws IOException {
    assertThat(PythonNumbers.toFloat(Json.mapper().readTree("true")).value()).contains(1.0);
    assertThat(PythonNumbers.toFloat(Json.mapper().readTree("7")).value()).contains(7.0);
    assertThat(PythonNumbers.toFloat(Json.mapper().readTree("null")).problem()).contains("NoneType");
    assertThat(PythonNumbers.toFloat(Json.mapper().readTree("[1]")).problem()).contains("'list'");
    assertThat(PythonNumbers.toInt(Json.mapper().readTree("4.0")).value()).contains(4);
    assertThat(PythonNumbers.toInt(Json.mapper().readTree("\"16\"")).value()).contains(16);
    // Python would truncate 4.5 to 4; infx refuses a fractional concurrency.
    assertThat(PythonNumbers.toInt(Json.mapper().readTree("4.5")).ok()).isFalse();
    assertThat(PythonNumbers.toInt(Json.mapper().readTree("null")).problem()).contains("NoneType");
  }
}
