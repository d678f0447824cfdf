package io.infx.matrix.internal;

import java.util.regex.Pattern;

/** Shell-style patterns as Python's {@code fnmatch}: {@code *}, {@code ?}, {@code [abc]}, {@code [!abc]}. */
public final class Glob {

  private Glob() {}

  /** The whole-string regular expression of {@code glob} (case-sensitive). */
  public static Pattern toRegex(String glob) {
    StringBuilder re = new StringBuilder();
    int i = 0;
    int n = glob.length();
    while (i < n) {
      char c = glob.charAt(i++);
      if (c == '*') {
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (c == '[') {
        int j = i;
        if (j < n && glob.charAt(j) == '!') {
          j++;
        }
        if (j < n && glob.charAt(j) == ']') {
          j++;
        }
        while (j < n && glob.charAt(j) != ']') {
          j++;
        }
        if (j >= n) {
          re.append("\\[");
        } else {
          String body = glob.substring(i, j).replace("\\", "\\\\");
          i = j + 1;
          if (body.startsWith("!")) {
            body = "^" + body.substring(1);
          } else if (body.startsWith("^")) {
            body = "\\" + body;
          }
          re.append('[').append(body.replace("[", "\\[").replace("&&", "\\&\\&")).append(']');
        }
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }
}
