package io.infx.testing;

import io.infx.core.ValidationException;
import io.infx.matrix.Matrix;

/**
 * AssertJ entry point for infx values, beside {@code org.assertj.core.api.Assertions}:
 *
 * <pre>{@code
 * ValidationException e = catchThrowableOfType(ValidationException.class, () -> Catalog.load(files));
 * InfxAssertions.assertThat(e).hasViolation("V13.positive-size").at("acme.yaml", 16, 29);
 * InfxAssertions.assertThat(matrix).allRowsSatisfy(row -> assertThat(row.precision()).isEqualTo("fp8"));
 * }</pre>
 */
public final class InfxAssertions {

  private InfxAssertions() {}

  /** Assertions on the violations a validation error carries. */
  public static ValidationExceptionAssert assertThat(ValidationException actual) {
    return new ValidationExceptionAssert(actual);
  }

  /** Assertions on an expanded matrix's rows. */
  public static MatrixAssert assertThat(Matrix actual) {
    return new MatrixAssert(actual);
  }
}
