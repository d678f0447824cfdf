package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.core.json.Json;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Expected values were printed by CPython 3.11.7 ({@code repr(v)}; see the comments), not derived
 * from the code under test.
 */
class PythonReprTest {

  private static double bits(String hex) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
  }

  @Test
  void floatReprIsShortestEvenWhereJava17DoubleToStringIsNot() {
    // Java 17's Double.toString gives 2.82879384806159008E17, 1.9400994884341944E25 and 4.9E-324
    assertThat(PythonNumbers.floatRepr(bits("438f67ea69ed3795"))).isEqualTo("2.82879384806159e+17");
    assertThat(PythonNumbers.floatRepr(bits("45300c520a43f0af"))).isEqualTo("1.9400994884341945e+25");
    assertThat(PythonNumbers.floatRepr(bits("0000000000000001"))).isEqualTo("5e-324");
    assertThat(PythonNumbers.floatRepr(bits("0000000000000058"))).isEqualTo("4.35e-322");
    assertThat(PythonNumbers.floatRepr(bits("44b52d02c7e14af6"))).isEqualTo("1e+23");
    assertThat(PythonNumbers.floatRepr(bits("3f60624dd2f1a9fc"))).isEqualTo("0.002");
    assertThat(PythonNumbers.floatRepr(bits("3ee4f8b588e368f1"))).isEqualTo("1e-05");
    assertThat(PythonNumbers.floatRepr(bits("8000000000000000"))).isEqualTo("-0.0");
    assertThat(PythonNumbers.floatRepr(bits("3fd3333333333334"))).isEqualTo("0.30000000000000004");
    assertThat(PythonNumbers.floatRepr(bits("4341c37937e08000"))).isEqualTo("1e+16");
    assertThat(PythonNumbers.floatRepr(bits("430c6bf526340000"))).isEqualTo("1000000000000000.0");
    assertThat(PythonNumbers.floatRepr(bits("437b69b4ba630f35"))).isEqualTo("1.2345678901234568e+17");
    assertThat(PythonNumbers.floatRepr(bits("4340000000000000"))).isEqualTo("9007199254740992.0");
    assertThat(PythonNumbers.floatRepr(bits("0010000000000000"))).isEqualTo("2.2250738585072014e-308");
    assertThat(PythonNumbers.floatRepr(bits("7fefffffffffffff"))).isEqualTo("1.7976931348623157e+308");
    assertThat(PythonNumbers.floatRepr(bits("4059000000000000"))).isEqualTo("100.0");
    assertThat(PythonNumbers.floatRepr(bits("3e8421f5f40d8376"))).isEqualTo("1.5e-07");
  }

  @Test
  void stringReprChoosesQuotesAndEscapesLikeCPython() {
    assertThat(PythonRepr.repr("plain")).isEqualTo("'plain'");
    assertThat(PythonRepr.repr("it's")).isEqualTo("\"it's\"");
    assertThat(PythonRepr.repr("say \"hi\"")).isEqualTo("'say \"hi\"'");
    assertThat(PythonRepr.repr("both ' and \"")).isEqualTo("'both \\' and \"'");
    assertThat(PythonRepr.repr("back\\slash")).isEqualTo("'back\\\\slash'");
    assertThat(PythonRepr.repr("tab\tnl\n")).isEqualTo("'tab\\tnl\\n'");
    assertThat(PythonRepr.repr("bell\u0007")).isEqualTo("'bell\\x07'");
    assertThat(PythonRepr.repr("nbsp\u00a0")).isEqualTo("'nbsp\\xa0'");
    assertThat(PythonRepr.repr("ls\u2028")).isEqualTo("'ls\\u2028'");
    assertThat(PythonRepr.repr("é ü")).isEqualTo("'é ü'");
    assertThat(PythonRepr.repr("emoji \uD83D\uDE00")).isEqualTo("'emoji \uD83D\uDE00'");
  }

  @Test
  void containersAndJsonTreesReprLikePythonLiterals() throws Exception {
    // repr(['a', 1, 2.5, None, True, {'k': [1e-05]}])
    String python = "['a', 1, 2.5, None, True, {'k': [1e-05]}]";
    Map<String, Object> dict = new LinkedHashMap<>();
    dict.put("k", List.of(1e-05));
    assertThat(PythonRepr.repr(Arrays.asList("a", 1, 2.5, null, true, dict))).isEqualTo(python);
    assertThat(PythonRepr.repr(Json.mapper().readTree("[\"a\", 1, 2.5, null, true, {\"k\": [1e-05]}]")))
        .isEqualTo(python);
    assertThat(PythonRepr.str(Json.mapper().readTree("\"text\""))).isEqualTo("text");
    assertThat(PythonRepr.floatRepr(Double.POSITIVE_INFINITY)).isEqualTo("inf");
  }

  @Test
  void plainJavaTreesDumpWithPythonFloats() {
    // json.dumps({"a": 1e-05, "b": [1, "x"], "c": None}) == '{"a": 1e-05, "b": [1, "x"], "c": null}'
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", 1e-05);
    m.put("b", List.of(1, "x"));
    m.put("c", null);
    assertThat(PythonJson.dumpsValue(m)).isEqualTo("{\"a\": 1e-05, \"b\": [1, \"x\"], \"c\": null}");
  }
}
