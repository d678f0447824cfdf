package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Checked against outputs recorded from CPython 3.11 ({@code src/test/resources/python/}):
 * {@code repr(float)} of 700+ doubles (random bit patterns, every magnitude, subnormals) and
 * {@code json.dumps} with and without {@code indent} and {@code sort_keys}.
 */
class PythonJsonTest {

  private static String resource(String name) throws IOException {
    try (InputStream in = PythonJsonTest.class.getResourceAsStream("/python/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void floatReprMatchesPythonForHundredsOfDoubles() throws IOException {
    List<String> lines = resource("float-repr.tsv").lines().toList();
    assertThat(lines).hasSizeGreaterThan(700);
    for (String line : lines) {
      String[] parts = line.split("\t");
      double d = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
      assertThat(PythonJson.floatRepr(d)).as("repr of %s", parts[0]).isEqualTo(parts[1]);
    }
  }

  @Test
  void dumpsMatchesPythonJsonDumps() throws IOException {
    JsonNode input = Json.mapper().readTree(resource("dumps-input.json"));
    assertThat(PythonJson.dumps(input, 2)).isEqualTo(resource("dumps-indent2.txt"));
    assertThat(PythonJson.dumps(input)).isEqualTo(resource("dumps-compact.txt"));
  }

  @Test
  void sortKeysUsesCodePointOrderLikePython() throws IOException {
    JsonNode input = Json.mapper().readTree(resource("sort-input.json"));
    assertThat(PythonJson.dumps(input, 2, true)).isEqualTo(resource("sort-indent2.txt"));
    assertThat(PythonJson.dumps(input, -1, true)).isEqualTo(resource("sort-compact.txt"));
  }

  @Test
  void nonFiniteFloatsAreWrittenLikePython() {
    assertThat(PythonJson.floatRepr(Double.NaN)).isEqualTo("NaN");
    assertThat(PythonJson.floatRepr(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
    assertThat(PythonJson.floatRepr(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
  }
}
