package io.infx.core.tree;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * YAML 1.1 implicit typing of plain scalars, as PyYAML's safe loader does it (the reference reads
 * every master and runner file that way): {@code yes/no/on/off} are booleans, integers may carry
 * underscores ({@code 2_063_837}), a leading {@code 0} means octal and {@code 0x} hex, base-60
 * {@code 1:30} is an integer, a float needs a dot ({@code 1e3} stays a string), {@code ~} and the
 * empty value are null.
 */
final class Yaml11 {

  private static final Pattern BOOL = Pattern.compile(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  private static final Pattern FLOAT = Pattern.compile(
      "[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?"
          + "|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
          + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
          + "|[-+]?\\.(?:inf|Inf|INF)"
          + "|\\.(?:nan|NaN|NAN)");
  private static final Pattern INT = Pattern.compile(
      "[-+]?0b[0-1_]+"
          + "|[-+]?0[0-7_]+"
          + "|[-+]?(?:0|[1-9][0-9_]*)"
          + "|[-+]?0x[0-9a-fA-F_]+"
          + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
  private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");
  private static final Pattern TIMESTAMP = Pattern.compile(
      "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
          + "|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
          + "(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?"
          + "(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?");

  private Yaml11() {}

  /** Kind and value of a plain (unquoted, untagged) scalar. */
  static Object[] resolvePlain(String text) {
    if (text.isEmpty()) {
      return new Object[] {ScalarKind.NULL, null};
    }
    char c = text.charAt(0);
    // Fast paths for the common cases (most scalars are words or small decimal integers).
    if (isLetter(c) && "yYnNtTfFoO".indexOf(c) < 0) {
      return new Object[] {ScalarKind.STRING, text};
    }
    if (c >= '1' && c <= '9' && text.length() < 18 && allDigits(text)) {
      return new Object[] {ScalarKind.INTEGER, BigInteger.valueOf(Long.parseLong(text))};
    }
    if (NULL.matcher(text).matches()) {
      return new Object[] {ScalarKind.NULL, null};
    }
    boolean numeric = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
    if (numeric) {
      if (FLOAT.matcher(text).matches()) {
        return new Object[] {ScalarKind.FLOAT, parseFloat(text)};
      }
      if (INT.matcher(text).matches()) {
        return new Object[] {ScalarKind.INTEGER, parseInt(text)};
      }
      if (TIMESTAMP.matcher(text).matches()) {
        return new Object[] {ScalarKind.TIMESTAMP, text};
      }
      return new Object[] {ScalarKind.STRING, text};
    }
    if (BOOL.matcher(text).matches()) {
      char f = Character.toLowerCase(c);
      boolean value = f == 'y' || f == 't' || (f == 'o' && text.length() == 2);
      return new Object[] {ScalarKind.BOOLEAN, value};
    }
    return new Object[] {ScalarKind.STRING, text};
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean allDigits(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** PyYAML's int construction: underscores dropped, 0b/0x/0-octal/base-60 forms. */
  static BigInteger parseInt(String text) {
    String v = text.replace("_", "");
    int sign = 1;
    if (v.startsWith("-")) {
      sign = -1;
      v = v.substring(1);
    } else if (v.startsWith("+")) {
      v = v.substring(1);
    }
    BigInteger out;
    if (v.equals("0")) {
      out = BigInteger.ZERO;
    } else if (v.startsWith("0b")) {
      out = new BigInteger(v.substring(2), 2);
    } else if (v.startsWith("0x")) {
      out = new BigInteger(v.substring(2), 16);
    } else if (v.startsWith("0")) {
      out = new BigInteger(v, 8);
    } else if (v.indexOf(':') >= 0) {
      out = BigInteger.ZERO;
      for (String part : v.split(":")) {
        out = out.multiply(BigInteger.valueOf(60)).add(new BigInteger(part));
      }
    } else {
      out = new BigInteger(v);
    }
    return sign < 0 ? out.negate() : out;
  }

  /** PyYAML's float construction; finite values kept exact as BigDecimal, .inf/.nan as Double. */
  static Object parseFloat(String text) {
    String v = text.replace("_", "").toLowerCase(java.util.Locale.ROOT);
    int sign = 1;
    if (v.startsWith("-")) {
      sign = -1;
      v = v.substring(1);
    } else if (v.startsWith("+")) {
      v = v.substring(1);
    }
    if (v.equals(".inf")) {
      return sign * Double.POSITIVE_INFINITY;
    }
    if (v.equals(".nan")) {
      return Double.NaN;
    }
    BigDecimal out;
    if (v.indexOf(':') >= 0) {
      String[] parts = v.split(":");
      out = BigDecimal.ZERO;
      for (int i = 0; i < parts.length; i++) {
        BigDecimal p = new BigDecimal(parts[i].isEmpty() ? "0" : parts[i]);
        out = out.multiply(BigDecimal.valueOf(60)).add(p);
      }
    } else {
      if (v.endsWith(".")) {
        v = v + "0";
      }
      int e = v.indexOf('e');
      if (e > 0 && v.charAt(e - 1) == '.') {
        v = v.substring(0, e) + "0" + v.substring(e);
      }
      out = new BigDecimal(v);
    }
    return sign < 0 ? out.negate() : out;
  }
}
