package com.acme.benchci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.infx.core.ValidationException;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.Sweep;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * This team's unit tests of its own config, with plain JUnit (the property tests with infx-testing
 * come beside them, see pom.xml).
 */
class DeclarationTest {

  @Test
  void theConfigExpandsToOneRowPerConcurrency() {
    Matrix matrix = BenchmarkGate.declaration().expand();
    assertEquals(List.of(List.of(1), List.of(4)), matrix.rows().stream().map(MatrixRow::conc).toList());
    for (MatrixRow row : matrix) {
      assertEquals(256, ((Number) row.fields().get("isl")).intValue());
      assertEquals(32, ((Number) row.fields().get("osl")).intValue());
      assertEquals("vllm/vllm-openai:v0.11.0", row.image());
    }
  }

  @Test
  void specialisingTheConfigLeavesTheBaseAlone() {
    Sweep.SingleNode base = BenchmarkGate.declaration();
    String before = base.expand().toJson();
    Sweep.SingleNode bigger = base.searchSpace(1024, 128, Sweep.tp(2).concList(8));
    assertNotEquals(base, bigger);
    assertEquals(before, base.expand().toJson());
    assertEquals(3, bigger.expand().size());
  }

  @Test
  void anInvalidVariantIsRejectedWithTheRule() {
    // DCP must divide TP: the built-in rule names itself and where the entry is
    ValidationException e = assertThrows(ValidationException.class,
        () -> BenchmarkGate.declaration().searchSpace(256, 32, Sweep.tp(2).dcp(3).concList(1)).expand());
    assertEquals(true, e.violations().stream().anyMatch(v -> v.ruleId().equals("V14.dcp-divides-tp")
        && v.pointer().equals("/acme-bf16-h100-vllm/scenarios/fixed-seq-len/1/search-space/0")), e.getMessage());
  }
}
