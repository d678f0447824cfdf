package io.infx.matrix.changelog.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.python.PythonJson;
import org.junit.jupiter.api.Test;

class YamlTreeTest {

  @Test
  void duplicateKeysFollowPythonDictSemanticsOrAreRejected() {
    String text = "a: 1\nb: 2\na: 3\n";
    YamlTree t = YamlTree.parse(text, "f", l -> l, YamlTree.Duplicates.LAST_WINS, ErrorKind.CHANGELOG);
    assertThat(t.root().toString()).isEqualTo("{\"a\":3,\"b\":2}");
    assertThatThrownBy(() -> YamlTree.parse(text, "f", l -> l, YamlTree.Duplicates.REJECT, ErrorKind.CHANGELOG))
        .isInstanceOf(ValidationException.class).hasMessageContaining("f:3:1")
        .hasMessageContaining("duplicate mapping key 'a'");
  }

  @Test
  void yaml11ScalarsAndLocations() {
    YamlTree t = YamlTree.parse("x: [yes, off, 1_000, 0x10, ~, '1', 2.5]\n", "f", l -> l + 10,
        YamlTree.Duplicates.REJECT, ErrorKind.CHANGELOG);
    assertThat(t.root().toString()).isEqualTo("{\"x\":[true,false,1000,16,null,\"1\",2.5]}");
    assertThat(t.locationOf("/x/2")).map(Object::toString).contains("f:11:15");
    assertThat(t.keyLocationOf("/x")).map(Object::toString).contains("f:11:1");
  }

  /** Property: every finite double's Python repr reads back as the same double. */
  @Test
  void floatReprRoundTrips() {
    qt().withExamples(2000).forAll(doubles().any()).checkAssert(d -> {
      if (Double.isFinite(d)) {
        assertThat(Double.parseDouble(PythonJson.floatRepr(d))).isEqualTo(d);
      }
    });
  }
}
