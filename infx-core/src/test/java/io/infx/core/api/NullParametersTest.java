package io.infx.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.testing.NullPointerTester;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Public entry points of infx-core name the parameter a null was passed for: every public static
 * method and public constructor of every public class outside {@code internal} packages throws
 * {@link NullPointerException} (or {@link UnsupportedOperationException}) for a null in a parameter
 * not marked {@code @Nullable} — Guava's {@link NullPointerTester} passes each parameter null in
 * turn, the others filled with sample values.
 */
class NullParametersTest {

  @Test
  void publicStaticMethodsAndConstructorsRejectNull() throws Exception {
    List<String> failures = new ArrayList<>();
    List<Class<?>> classes = publicClasses();
    assertThat(classes).hasSizeGreaterThan(20);
    NullPointerTester tester = new NullPointerTester()
        .setDefault(io.infx.core.Wording.class, io.infx.core.Wording.of("x"))
        .setDefault(io.infx.core.Location.class, io.infx.core.Location.of(Path.of("f.yaml"), 1, 1))
        .setDefault(io.infx.core.tree.Node.class, new io.infx.core.tree.ScalarNode("",
            io.infx.core.Location.of(Path.of("f.yaml"), 1, 1), io.infx.core.tree.ScalarKind.STRING, "x", "x"))
        .setDefault(io.infx.core.tree.Source.class, io.infx.core.tree.Source.text("f.yaml", "a: 1\n"))
        .setDefault(java.net.http.HttpRequest.class,
            java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:9/")).build())
        .setDefault(java.net.http.HttpClient.class, java.net.http.HttpClient.newHttpClient());
    for (Class<?> c : classes) {
      for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
        if (Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()) && !m.isSynthetic()) {
          try {
            tester.testMethod(null, m);
          } catch (AssertionError | RuntimeException e) {
            failures.add(c.getName() + "." + m.getName() + ": " + e.getMessage().lines().findFirst().orElse(""));
          }
        }
      }
      if (!Modifier.isAbstract(c.getModifiers())) {
        for (java.lang.reflect.Constructor<?> k : c.getConstructors()) {
          try {
            tester.testConstructor(k);
          } catch (AssertionError | RuntimeException e) {
            failures.add(c.getName() + ".<init>: " + e.getMessage().lines().findFirst().orElse(""));
          }
        }
      }
    }
    assertThat(failures).as("public entry points that accept a null silently or fail without naming it").isEmpty();
  }

  static List<Class<?>> publicClasses() throws IOException, URISyntaxException, ClassNotFoundException {
    Path root = Path.of(io.infx.core.InfxException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
        String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
        if (name.contains(".internal.") || name.contains("$") || name.endsWith("package-info")
            || name.contains(".Immutable")) {
          continue;
        }
        Class<?> c = Class.forName(name, false, NullParametersTest.class.getClassLoader());
        if (Modifier.isPublic(c.getModifiers()) && !c.isInterface() && !c.isAnnotation()) {
          out.add(c);
        }
      }
    }
    return out;
  }
}
