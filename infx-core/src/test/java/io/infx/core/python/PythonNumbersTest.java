package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;

import org.junit.jupiter.api.Test;

class PythonNumbersTest {

  @Test
  void formatGMatchesCFormatting() {
    // values from spec §5 and Python's format(x, "g")
    assertThat(PythonNumbers.formatG(65)).isEqualTo("65");
    assertThat(PythonNumbers.formatG(4157)).isEqualTo("4157");
    assertThat(PythonNumbers.formatG(1234567)).isEqualTo("1.23457e+06");
    assertThat(PythonNumbers.formatG(0)).isEqualTo("0");
    assertThat(PythonNumbers.formatG(0.5)).isEqualTo("0.5");
    assertThat(PythonNumbers.formatG(100000)).isEqualTo("100000");
    assertThat(PythonNumbers.formatG(1000000)).isEqualTo("1e+06");
    assertThat(PythonNumbers.formatG(0.0001)).isEqualTo("0.0001");
    assertThat(PythonNumbers.formatG(0.00001)).isEqualTo("1e-05");
    assertThat(PythonNumbers.formatG(12.5)).isEqualTo("12.5");
    assertThat(PythonNumbers.formatG(2.5e-7)).isEqualTo("2.5e-07");
    assertThat(PythonNumbers.formatG(1e100)).isEqualTo("1e+100");
  }

  @Test
  void percentWithThreeDecimals() {
    assertThat(PythonNumbers.formatPercent3(0.10)).isEqualTo("10.000%");
    assertThat(PythonNumbers.formatPercent3(65.0 / 67)).isEqualTo("97.015%");
    assertThat(PythonNumbers.formatPercent3(0)).isEqualTo("0.000%");
    assertThat(PythonNumbers.formatPercent3(1)).isEqualTo("100.000%");
    // 0.0001235 * 100 is not above the tie in binary: it rounds down, as CPython does
    assertThat(PythonNumbers.formatPercent3(0.0001235)).isEqualTo("0.012%");
  }

  @Test
  void roundIsHalfEvenOnTheExactBinaryValue() {
    // 2.675 is 2.67499999999999982236431605997495353221893310546875 in binary
    assertThat(PythonNumbers.round(2.675, 2)).isEqualTo(2.67);
    // 0.125 is exact: a true tie rounds to even
    assertThat(PythonNumbers.round(0.125, 2)).isEqualTo(0.12);
    assertThat(PythonNumbers.round(0.375, 2)).isEqualTo(0.38);
    assertThat(PythonNumbers.round(1.0 / 3, 5)).isEqualTo(0.33333);
    assertThat(PythonNumbers.roundToLong(2.5)).isEqualTo(2);
    assertThat(PythonNumbers.roundToLong(3.5)).isEqualTo(4);
    assertThat(PythonNumbers.round(Double.NaN, 5)).isNaN();
  }

  @Test
  void formatGRoundTripsToSixSignificantDigits() {
    qt().forAll(doubles().between(-1e12, 1e12)).checkAssert(x -> {
      double back = Double.parseDouble(PythonNumbers.formatG(x));
      assertThat(back).isCloseTo(x, within(Math.abs(x) * 5e-6 + 1e-300));
    });
  }

  @Test
  void roundIsWithinHalfAUnitOfTheLastDecimal() {
    qt().forAll(doubles().between(-1e6, 1e6)).checkAssert(x -> {
      double r = PythonNumbers.round(x, 5);
      assertThat(Math.abs(r - x)).isLessThanOrEqualTo(0.5e-5 + Math.ulp(x) * 2);
      assertThat(PythonNumbers.round(r, 5)).isEqualTo(r);
    });
  }
}
