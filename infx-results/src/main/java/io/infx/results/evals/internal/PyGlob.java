package io.infx.results.evals.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Python's {@code glob.glob(pattern)} (non-recursive) on POSIX: {@code *}, {@code ?} and
 * {@code [...]} / {@code [!...]} per path component, names starting with {@code .} matched only by
 * a component that starts with {@code .}, results spelled as the pattern's directories joined with
 * the matched names, in listing order (callers sort). Relative patterns resolve against a given
 * working directory instead of the process's.
 */
public final class PyGlob {

  private PyGlob() {}

  private static final Pattern MAGIC = Pattern.compile("[*?\\[]");

  /** The matches of {@code pattern}, relative to {@code cwd} when the pattern is relative. */
  public static List<String> glob(Path cwd, String pattern) {
    List<String> out = new ArrayList<>();
    if (!hasMagic(pattern)) {
      if (!pattern.isEmpty() && lexists(cwd, pattern)) {
        out.add(pattern);
      }
      return out;
    }
    int slash = pattern.lastIndexOf('/');
    String dirname = slash < 0 ? "" : pattern.substring(0, slash + 1);
    String basename = pattern.substring(slash + 1);
    // os.path.split strips trailing slashes from the head unless it is all slashes
    String head = dirname;
    if (!head.isEmpty() && !head.chars().allMatch(c -> c == '/')) {
      head = head.replaceAll("/+$", "");
    }
    if (head.isEmpty()) {
      for (String name : glob1(cwd, "", basename, false)) {
        out.add(name);
      }
      return out;
    }
    List<String> dirs = hasMagic(head) ? globDirs(cwd, head) : List.of(head);
    for (String d : dirs) {
      List<String> names = hasMagic(basename) ? glob1(cwd, d, basename, false) : glob0(cwd, d, basename);
      for (String name : names) {
        out.add(join(d, name));
      }
    }
    return out;
  }

  private static List<String> globDirs(Path cwd, String pattern) {
    // directories only for intermediate components
    List<String> out = new ArrayList<>();
    int slash = pattern.lastIndexOf('/');
    String head = slash < 0 ? "" : pattern.substring(0, slash + 1);
    String base = pattern.substring(slash + 1);
    if (!head.isEmpty() && !head.chars().allMatch(c -> c == '/')) {
      head = head.replaceAll("/+$", "");
    }
    if (head.isEmpty()) {
      return hasMagic(base) ? glob1(cwd, "", base, true) : (isDir(cwd, base) ? List.of(base) : List.of());
    }
    List<String> parents = hasMagic(head) ? globDirs(cwd, head) : List.of(head);
    for (String p : parents) {
      List<String> names = hasMagic(base) ? glob1(cwd, p, base, true)
          : (isDir(cwd, join(p, base)) ? List.of(base) : List.<String>of());
      for (String n : names) {
        out.add(join(p, n));
      }
    }
    return out;
  }

  private static List<String> glob0(Path cwd, String dir, String basename) {
    if (basename.isEmpty()) {
      return isDir(cwd, dir) ? List.of(basename) : List.of();
    }
    return lexists(cwd, join(dir, basename)) ? List.of(basename) : List.of();
  }

  private static List<String> glob1(Path cwd, String dir, String pattern, boolean dirsOnly) {
    Path d = dir.isEmpty() ? cwd : cwd.resolve(dir);
    Pattern re = Pattern.compile(translate(pattern), Pattern.DOTALL);
    boolean hiddenOk = pattern.startsWith(".");
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        if (!hiddenOk && name.startsWith(".")) {
          continue;
        }
        if (dirsOnly && !Files.isDirectory(p)) {
          continue;
        }
        if (re.matcher(name).matches()) {
          out.add(name);
        }
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return out;
  }

  /** {@code fnmatch.translate} without the anchors (matched whole with {@code matches()}). */
  static String translate(String pat) {
    StringBuilder re = new StringBuilder();
    int i = 0;
    int n = pat.length();
    while (i < n) {
      char c = pat.charAt(i++);
      if (c == '*') {
        while (i < n && pat.charAt(i) == '*') {
          i++;
        }
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (c == '[') {
        int j = i;
        if (j < n && pat.charAt(j) == '!') {
          j++;
        }
        if (j < n && pat.charAt(j) == ']') {
          j++;
        }
        while (j < n && pat.charAt(j) != ']') {
          j++;
        }
        if (j >= n) {
          re.append("\\[");
        } else {
          String stuff = pat.substring(i, j);
          i = j + 1;
          StringBuilder cls = new StringBuilder("[");
          int k = 0;
          if (stuff.startsWith("!")) {
            cls.append('^');
            k = 1;
          } else if (stuff.startsWith("^")) {
            cls.append("\\^");
            k = 1;
          }
          for (; k < stuff.length(); k++) {
            char sc = stuff.charAt(k);
            if (sc == '\\' || sc == '[' || sc == '&' || sc == '~' || sc == '|') {
              cls.append('\\');
            }
            cls.append(sc);
          }
          re.append(cls).append(']');
        }
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return re.toString();
  }

  private static boolean hasMagic(String s) {
    return MAGIC.matcher(s).find();
  }

  private static boolean lexists(Path cwd, String path) {
    return Files.exists(cwd.resolve(path), LinkOption.NOFOLLOW_LINKS);
  }

  private static boolean isDir(Path cwd, String path) {
    return Files.isDirectory(cwd.resolve(path));
  }

  private static String join(String dir, String name) {
    if (dir.isEmpty() || dir.endsWith("/")) {
      return dir + name;
    }
    return dir + "/" + name;
  }
}
