package io.infx.core.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.core.python.PythonRepr;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PythonYaml} against PyYAML itself: every input of {@code python/yaml-safe-load.json}
 * (written by {@code yaml-safe-load.py} beside it, which ran PyYAML 6.0.3's {@code safe_load})
 * must give PyYAML's value, or its exception class and exact {@code str()}.
 */
class PythonYamlTest {

  @Test
  void everyInputBehavesAsPyYamlSafeLoad() throws IOException {
    JsonNode cases;
    try (InputStream in = PythonYamlTest.class.getResourceAsStream("/python/yaml-safe-load.json")) {
      assertThat(in).as("yaml-safe-load.json on the test class path").isNotNull();
      cases = Json.mapper().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    assertThat(cases.size()).isGreaterThan(150);
    List<String> failures = new ArrayList<>();
    for (JsonNode c : cases) {
      String input = c.get("input").textValue();
      String problem = check(c, input);
      if (problem != null) {
        failures.add(PythonRepr.repr(input) + ": " + problem);
      }
    }
    assertThat(failures).as(failures.size() + " of " + cases.size() + " inputs differ from PyYAML")
        .isEmpty();
  }

  private static String check(JsonNode c, String input) {
    Object value;
    try {
      value = PythonYaml.safeLoad(input);
    } catch (PythonYaml.LoadError e) {
      if (!c.has("type")) {
        return "PyYAML loads it, infx raised " + e.pythonType() + ": " + e.pythonMessage();
      }
      String want = c.get("type").textValue() + " (yaml error " + c.get("yaml_error").booleanValue() + "): "
          + c.get("message").textValue();
      String got = e.pythonType() + " (yaml error " + e.isYamlError() + "): " + e.pythonMessage();
      return want.equals(got) ? null : "\n  expected " + want + "\n  but got  " + got;
    } catch (RuntimeException e) {
      return "threw " + e;
    }
    if (c.has("type")) {
      return "PyYAML raises " + c.get("type").textValue() + ": " + c.get("message").textValue()
          + ", infx loaded " + PythonRepr.repr(value);
    }
    if (c.has("value") && !c.get("value").textValue().equals(PythonRepr.repr(value))) {
      return "expected " + c.get("value").textValue() + " but got " + PythonRepr.repr(value);
    }
    return null;
  }

  /**
   * Random mutations (written with PyYAML's answers by {@code yaml-safe-load-fuzz.py}) when
   * {@code INFX_PYYAML_FUZZ} names such a file: at most 1 % may differ, all of them inputs with
   * several errors where PyYAML's scanner look-ahead meets another one first.
   */
  @Test
  void randomMutationsMostlyAgreeWithPyYaml() throws IOException {
    String file = System.getenv("INFX_PYYAML_FUZZ");
    org.junit.jupiter.api.Assumptions.assumeTrue(file != null && !file.isBlank(),
        "INFX_PYYAML_FUZZ not set (see python/yaml-safe-load-fuzz.py); skipping");
    JsonNode cases = Json.mapper().readTree(java.nio.file.Files.readString(java.nio.file.Path.of(file)));
    int differ = 0;
    for (JsonNode c : cases) {
      if (check(c, c.get("input").textValue()) != null) {
        differ++;
      }
    }
    System.out.println("PythonYaml vs PyYAML on " + cases.size() + " mutations: " + differ + " differ");
    assertThat(differ).isLessThanOrEqualTo(cases.size() / 100);
  }

  @Test
  void duplicateAndEqualKeysKeepTheFirstKeyAndTheLastValue() {
    // PyYAML: {1: 'd', '1': 'b'} — 1, True and 1.0 are one dict key.
    Object v = PythonYaml.safeLoad("1: a\n'1': b\nTrue: c\n1.0: d\n");
    assertThat(v).isInstanceOf(Map.class);
    assertThat(PythonRepr.repr(v)).isEqualTo("{1: 'd', '1': 'b'}");
  }

  @Test
  void aMarkedErrorNamesTheUnicodeStringAndPointsAtTheColumn() {
    PythonYaml.LoadError e = catchThrowableOfType(PythonYaml.LoadError.class,
        () -> PythonYaml.safeLoad("a: b: c\n"));
    assertThat(e.isYamlError()).isTrue();
    assertThat(e.pythonType()).isEqualTo("ScannerError");
    assertThat(e.pythonMessage()).isEqualTo("mapping values are not allowed here\n"
        + "  in \"<unicode string>\", line 1, column 5:\n    a: b: c\n        ^");
  }
}
