package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ./infx jshell} starts with the library in reach: its start-up script
 * ({@code src/jshell/infx-startup.jsh}) imports every API package, and after JShell's own DEFAULT
 * start-up (which imports {@code java.util.*}, {@code java.util.stream.*}, …) every public infx type
 * is usable by its simple name — so the README's and docs' snippets work as written.
 */
class JShellStartupTest {

  private static final Path STARTUP = Path.of("src", "jshell", "infx-startup.jsh");
  private static final Pattern ON_DEMAND = Pattern.compile("(?m)^import (io\\.infx[\\w.]*)\\.\\*;");

  private static List<JavaClass> apiTypes;

  @BeforeAll
  static void importApi() {
    apiTypes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.infx").stream()
        .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC) && c.isTopLevelClass())
        .filter(c -> !c.getPackageName().contains(".internal") && !(c.getPackageName() + ".").startsWith("io.infx.cli."))
        .filter(c -> !c.getSimpleName().startsWith("Immutable")) // generated, not covered API (docs/compatibility.md)
        .toList();
  }

  @Test
  void importsEveryApiPackage() throws Exception {
    Set<String> imported = new TreeSet<>();
    Matcher m = ON_DEMAND.matcher(Files.readString(STARTUP));
    while (m.find()) {
      imported.add(m.group(1));
    }
    Set<String> api = apiTypes.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
    assertThat(api).as("API packages with public types").contains("io.infx.matrix", "io.infx.client.metrics", "io.infx.testing");
    assertThat(imported).as("packages %s imports on demand", STARTUP).isEqualTo(api);
  }

  @Test
  void everyPublicTypeResolvesByItsSimpleNameAfterTheStartup() throws Exception {
    List<String> problems = new ArrayList<>();
    try (JShell js = JShell.builder().executionEngine("local").build()) {
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        js.addToClasspath(entry);
      }
      // JShell's DEFAULT start-up, as `./infx jshell` runs it before ours
      for (String pkg : List.of("java.io", "java.math", "java.net", "java.nio.file", "java.util",
          "java.util.concurrent", "java.util.function", "java.util.prefs", "java.util.regex", "java.util.stream")) {
        eval(js, "import " + pkg + ".*;", problems);
      }
      for (String line : Files.readAllLines(STARTUP)) {
        if (line.startsWith("import ")) {
          eval(js, line, problems);
        }
      }
      assertThat(problems).as("start-up imports").isEmpty();
      // one snippet naming every type: an ambiguous or unknown name is rejected with its diagnostic
      String all = apiTypes.stream().map(c -> c.getSimpleName() + ".class")
          .collect(Collectors.joining(", ", "Class<?>[] infxApi = {", "};"));
      eval(js, all, problems);
    }
    assertThat(apiTypes).hasSizeGreaterThan(100);
    assertThat(problems).as("simple names that do not resolve after the start-up").isEmpty();
  }

  private static void eval(JShell js, String source, List<String> problems) {
    for (SnippetEvent e : js.eval(source)) {
      if (e.status() == Snippet.Status.REJECTED) {
        js.diagnostics(e.snippet()).forEach(d -> problems.add(d.getMessage(null)));
      }
      if (e.exception() != null) {
        problems.add(source + " threw " + e.exception());
      }
    }
  }
}
