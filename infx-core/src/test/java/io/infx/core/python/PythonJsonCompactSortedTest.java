package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@code json.dumps(v, sort_keys=True, separators=(",", ":"))} and {@code repr(float)}; expected
 * texts were produced by CPython 3.11.
 */
class PythonJsonCompactSortedTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0.1|0.1", "1e-05|1e-05", "0.0001|0.0001", "1e16|1e+16", "1e15|1000000000000000.0",
      "123456789012345678.0|1.2345678901234568e+17", "1.5e-07|1.5e-07", "-2.5|-2.5",
      "100.0|100.0", "0.8|0.8", "0.086|0.086", "4.9e-324|5e-324",
      "1.7976931348623157e308|1.7976931348623157e+308", "-0.0|-0.0", "0.002|0.002",
      "9007199254740993.0|9007199254740992.0", "0.3333333333333333|0.3333333333333333"})
  void floatsPrintLikePythonRepr(String javaLiteral, String python) {
    assertThat(PythonJson.floatRepr(Double.parseDouble(javaLiteral))).isEqualTo(python);
  }

  @Test
  void nonFiniteFloatsUseJavaScriptNames() {
    assertThat(PythonJson.floatRepr(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
    assertThat(PythonJson.floatRepr(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(PythonJson.floatRepr(Double.NaN)).isEqualTo("NaN");
  }

  @Test
  void sortsKeysByCodePointAndEscapesEverythingOutsidePrintableAscii() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode o = f.objectNode();
    o.put("b", 1);
    o.putArray("a").add(true).addNull().add("é\u2028\uD83D\uDE00\u007f\u0001\"\\\n\t");
    o.put("\uD83D\uDE00", 1);
    o.put("\uffff", 2);
    assertThat(PythonJson.dumpsCompactSorted(o)).isEqualTo(
        "{\"a\":[true,null,\"\\u00e9\\u2028\\ud83d\\ude00\\u007f\\u0001\\\"\\\\\\n\\t\"],"
            + "\"b\":1,\"\\uffff\":2,\"\\ud83d\\ude00\":1}");
  }

  @Test
  void integersKeepAllDigits() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    assertThat(PythonJson.dumpsCompactSorted(f.numberNode(new BigInteger("123456789012345678901234567890"))))
        .isEqualTo("123456789012345678901234567890");
    assertThat(PythonJson.dumpsCompactSorted(f.numberNode(-7L))).isEqualTo("-7");
  }
}
