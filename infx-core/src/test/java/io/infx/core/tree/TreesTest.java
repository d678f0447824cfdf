package io.infx.core.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreesTest {

  @TempDir
  Path dir;

  private static ScalarNode scalar(String yaml) {
    MapNode m = (MapNode) Trees.parseYaml("t.yaml", "v: " + yaml + "\n");
    return (ScalarNode) m.get("v").orElseThrow();
  }

  @Test
  void resolvesPlainScalarsWithYaml11RulesLikePyYaml() {
    assertThat(scalar("2_063_837").value()).isEqualTo(BigInteger.valueOf(2_063_837));
    assertThat(scalar("010").value()).isEqualTo(BigInteger.valueOf(8));
    assertThat(scalar("0x10").value()).isEqualTo(BigInteger.valueOf(16));
    assertThat(scalar("0b101").value()).isEqualTo(BigInteger.valueOf(5));
    assertThat(scalar("1:30").value()).isEqualTo(BigInteger.valueOf(90));
    assertThat(scalar("-7").value()).isEqualTo(BigInteger.valueOf(-7));
    assertThat(scalar("yes").value()).isEqualTo(true);
    assertThat(scalar("Off").value()).isEqualTo(false);
    assertThat(scalar("on").value()).isEqualTo(true);
    assertThat(scalar("~").kind()).isEqualTo(ScalarKind.NULL);
    assertThat(scalar("").kind()).isEqualTo(ScalarKind.NULL);
    assertThat(scalar("1e3").kind()).isEqualTo(ScalarKind.STRING);
    assertThat(scalar("1.5e+3").value()).isEqualTo(new BigDecimal("1.5e+3"));
    assertThat(scalar("0.086").value()).isEqualTo(new BigDecimal("0.086"));
    assertThat(scalar(".inf").value()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(scalar("2024-01-01").kind()).isEqualTo(ScalarKind.TIMESTAMP);
    assertThat(scalar("vllm").kind()).isEqualTo(ScalarKind.STRING);
    assertThat(scalar("\"8\"").kind()).isEqualTo(ScalarKind.STRING);
    assertThat(scalar("'yes'").value()).isEqualTo("yes");
    assertThat(scalar("!!str 12").value()).isEqualTo("12");
    assertThat(scalar("!!int '12'").value()).isEqualTo(BigInteger.valueOf(12));
  }

  @Test
  void everyNodeKnowsItsPointerAndLocation() {
    Node root = Trees.parseYaml("m.yaml", """
        a:
          list:
          - x: 1
          - "y/z~": two
        """);
    MapNode a = (MapNode) ((MapNode) root).get("a").orElseThrow();
    ListNode list = (ListNode) a.get("list").orElseThrow();
    MapNode second = (MapNode) list.get(1);
    Node v = second.get("y/z~").orElseThrow();
    assertThat(v.pointer()).isEqualTo("/a/list/1/y~1z~0");
    assertThat(v.location()).isEqualTo(new Location("m.yaml", 4, 13));
    assertThat(second.entries().get(0).keyNode().location()).isEqualTo(new Location("m.yaml", 4, 5));
    assertThat(Pointers.resolveNearest(root, "/a/list/1/y~1z~0")).isSameAs(v);
    assertThat(Pointers.resolveNearest(root, "/a/list/7/zz")).isSameAs(list);
    assertThat(a.keys()).containsExactly("list");
  }

  @Test
  void duplicateKeysAreReportedWithBothLines() {
    assertThatThrownBy(() -> Trees.parseYaml("d.yaml", "a: 1\nb: 2\na: 3\n"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          Violation v = e.violations().get(0);
          assertThat(v.ruleId()).isEqualTo("yaml.duplicate-key");
          assertThat(v.location()).contains(new Location("d.yaml", 3, 1));
          assertThat(v.message()).contains("duplicate key 'a'").contains("first defined at line 1");
        });
  }

  @Test
  void aliasBombsFailFastInsteadOfExhaustingMemory() {
    StringBuilder y = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    char prev = 'a';
    for (char c = 'b'; c <= 'j'; c++) {
      y.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 10; i++) {
        y.append(i == 0 ? "" : ", ").append('*').append(prev);
      }
      y.append("]\n");
      prev = c;
    }
    assertThatThrownBy(() -> Trees.parseYaml("bomb.yaml", y.toString()))
        .isInstanceOfSatisfying(ValidationException.class, e ->
            assertThat(e.violations()).anySatisfy(v -> assertThat(v.ruleId()).isEqualTo("yaml.limit")));
  }

  @Test
  void aliasesAndMergeKeysWithinLimitsAreExpanded() {
    MapNode m = (MapNode) Trees.parseYaml("a.yaml", """
        base: &b {tp: 8, ep: 1}
        one: {<<: *b, ep: 8}
        two: *b
        """);
    MapNode one = (MapNode) m.get("one").orElseThrow();
    assertThat(one.toPlain()).isEqualTo(java.util.Map.of("tp", BigInteger.valueOf(8), "ep", BigInteger.valueOf(8)));
    assertThat(((MapNode) m.get("two").orElseThrow()).get("tp").orElseThrow().pointer()).isEqualTo("/two/tp");
  }

  @Test
  void syntaxErrorsAreLocated() {
    assertThatThrownBy(() -> Trees.parseYaml("s.yaml", "a: [1, 2\nb: 3\n"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.violations().get(0).ruleId()).isEqualTo("yaml.syntax");
          assertThat(e.violations().get(0).location()).isPresent();
          assertThat(e.getMessage()).startsWith("s.yaml:");
        });
  }

  @Test
  void unknownTagsAreRejected() {
    assertThatThrownBy(() -> Trees.parseYaml("t.yaml", "a: !!python/object x\n"))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isIn("yaml.tag", "yaml.syntax"));
  }

  @Test
  void emptyDocumentIsNullAtTheStart() {
    Node n = Trees.parseYaml("e.yaml", "# only a comment\n");
    assertThat(n.isNull()).isTrue();
    assertThat(n.location()).isEqualTo(new Location("e.yaml", 1, 1));
  }

  @Test
  void filesMissingDirectoriesAndOversizedInputsHaveClearErrors() throws Exception {
    assertThatThrownBy(() -> Trees.readYaml(Source.file(dir.resolve("nope.yaml"), "nope.yaml")))
        .isInstanceOfSatisfying(InfxException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.FILE);
          assertThat(e.getMessage()).isEqualTo("'nope.yaml' does not exist");
        });
    assertThatThrownBy(() -> Trees.readYaml(Source.file(dir, "configs")))
        .hasMessageContaining("is a directory");
    Path big = dir.resolve("big.yaml");
    Files.writeString(big, "a: " + "x".repeat(200) + "\n");
    assertThatThrownBy(() -> Trees.readYaml(Source.file(big), TreeLimits.DEFAULT.withMaxBytes(100)))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isEqualTo("input.too-large"));
    Path latin = dir.resolve("latin.yaml");
    Files.write(latin, new byte[] {'a', ':', ' ', (byte) 0xe9, '\n'});
    assertThatThrownBy(() -> Trees.readYaml(Source.file(latin)))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isEqualTo("input.encoding"));
  }

  @Test
  void jsonTreesAreLocatedAndRejectDuplicates() {
    Node n = Trees.readJson(Source.text("r.json", "{\n  \"a\": [1, 2.50, true, null, \"s\"]\n}"));
    ListNode a = (ListNode) ((MapNode) n).get("a").orElseThrow();
    assertThat(a.toPlain()).isEqualTo(java.util.Arrays.asList(BigInteger.ONE, new BigDecimal("2.50"), true, null, "s"));
    assertThat(a.get(1).location()).isEqualTo(new Location("r.json", 2, 12));
    assertThat(a.get(4).pointer()).isEqualTo("/a/4");
    assertThatThrownBy(() -> Trees.readJson(Source.text("d.json", "{\"a\": 1, \"a\": 2}")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isEqualTo("json.duplicate-key"));
    assertThatThrownBy(() -> Trees.readJson(Source.text("s.json", "{\"a\": }")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isEqualTo("json.syntax"));
  }
}
