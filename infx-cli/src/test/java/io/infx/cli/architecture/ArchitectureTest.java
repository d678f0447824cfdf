package io.infx.cli.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of infx, enforced on the compiled main classes of every library module
 * (infx-cli's test classpath sees them all). Each module {@code infx-X} is the Java module
 * {@code io.infx.X} (its jar's {@code Automatic-Module-Name}) and owns the packages
 * {@code io.infx.X..}. A new module gets a rung in {@link #LADDER} and a line in
 * docs/architecture.md.
 */
class ArchitectureTest {

  /**
   * The dependency ladder: a module may use only modules on a lower rung (never one on its own
   * rung or above). core ← matrix, client ← results ← store, report ← dashboard, fleet ← run ← cli.
   */
  static final Map<String, Integer> LADDER = new LinkedHashMap<>();

  static {
    LADDER.put("core", 0);
    LADDER.put("matrix", 1);
    LADDER.put("client", 1);
    LADDER.put("testing", 2);
    LADDER.put("results", 2);
    LADDER.put("store", 3);
    LADDER.put("report", 3);
    LADDER.put("dashboard", 4);
    LADDER.put("fleet", 4);
    LADDER.put("run", 5);
    LADDER.put("cli", 6);
  }

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.infx");
  }

  /** Rules on an arbitrary set of classes, so a planted violation can be shown to fail. */
  static List<ArchRule> rules() {
    List<ArchRule> rules = new ArrayList<>();
    for (Map.Entry<String, Integer> m : LADDER.entrySet()) {
      List<String> upward = new ArrayList<>();
      LADDER.forEach((other, rung) -> {
        if (!other.equals(m.getKey()) && rung >= m.getValue()) {
          upward.add("io.infx." + other + "..");
        }
      });
      rules.add(noClasses().that().resideInAPackage("io.infx." + m.getKey() + "..")
          .should().dependOnClassesThat().resideInAnyPackage(upward.toArray(String[]::new))
          .as("module io.infx." + m.getKey() + " depends only on lower rungs of the ladder")
          .allowEmptyShould(true));
    }
    rules.add(slices().matching("io.infx.(*)..").should().beFreeOfCycles()
        .as("modules are free of cycles"));
    rules.add(classes().that().resideInAPackage("io.infx..")
        .and().resideOutsideOfPackage("..internal..")
        .should(exposeNoInternalTypes())
        .as("no type of an internal package appears in a public signature"));
    return rules;
  }

  @Test
  void modulesDependOnlyDownTheLadderWithoutCyclesAndHideTheirInternals() {
    List<String> failures = new ArrayList<>();
    for (ArchRule rule : rules()) {
      EvaluationResult result = rule.evaluate(classes);
      if (result.hasViolation()) {
        failures.add(rule.getDescription() + ":\n  " + String.join("\n  ",
            result.getFailureReport().getDetails().stream().limit(20).toList()));
      }
    }
    assertThat(failures).as("architecture violations").isEmpty();
  }

  @Test
  void everyPublicTypeHasASimpleNameOfItsOwn() {
    Map<String, Set<String>> clashes = simpleNameClashes(classes);
    assertThat(clashes)
        .as("public types outside internal packages that share a simple name (rename one so the"
            + " name says what it is)")
        .isEmpty();
  }

  @Test
  void simpleNameRuleFailsOnPlantedClashes() {
    JavaClasses planted = new ClassFileImporter().importClasses(
        io.infx.cli.architecture.plant.a.Clash.class, io.infx.cli.architecture.plant.a.Clash.Builder.class,
        io.infx.cli.architecture.plant.a.Summary.class, io.infx.cli.architecture.plant.b.Clash.class,
        io.infx.cli.architecture.plant.b.Holder.class, io.infx.cli.architecture.plant.b.Holder.Builder.class,
        io.infx.cli.architecture.plant.b.Holder.Summary.class);
    assertThat(simpleNameClashes(planted)).containsOnlyKeys("Clash", "Summary")
        .containsEntry("Clash", Set.of("io.infx.cli.architecture.plant.a.Clash",
            "io.infx.cli.architecture.plant.b.Clash"))
        .containsEntry("Summary", Set.of("io.infx.cli.architecture.plant.a.Summary",
            "io.infx.cli.architecture.plant.b.Holder$Summary"));
  }

  @Test
  void everyPackageBelongsToAModuleOnTheLadder() {
    Set<String> unknown = new TreeSet<>();
    for (JavaClass c : classes) {
      String root = moduleOf(c);
      if (!LADDER.containsKey(root)) {
        unknown.add(c.getPackageName());
      }
    }
    assertThat(unknown).as("packages of no module on the ladder (add the module to LADDER)").isEmpty();
  }

  @Test
  void eachModuleOwnsExactlyThePackagesOfItsModuleName() {
    // Automatic-Module-Name io.infx.X is derived from the artifactId infx-X: the classes of
    // io.infx.X.. must all come from infx-X (no split packages across jars).
    Map<String, Set<String>> wrong = new TreeMap<>();
    for (JavaClass c : classes) {
      String module = moduleOf(c);
      String location = c.getSource().map(s -> s.getUri().toString()).orElse("");
      if (!location.contains("/infx-" + module + "/") && !location.contains("/infx-" + module + "-")) {
        wrong.computeIfAbsent(module, k -> new TreeSet<>()).add(c.getName() + " from " + location);
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Public types (outside {@code internal} packages) whose simple names clash, as
   * {@code name -> [fully qualified names]}. A top-level type's name must be unique among all
   * public types, nested ones included (an import of {@code SuccessRate.Stats} would hide
   * {@code io.infx.client.metrics.Stats}); a nested type's name must be unique as written with its
   * enclosing types ({@code Outer.Inner}), so {@code A.Builder} and {@code B.Builder} may coexist.
   */
  static Map<String, Set<String>> simpleNameClashes(JavaClasses candidates) {
    Map<String, Set<String>> byKey = new TreeMap<>();
    Map<String, Set<String>> topLevel = new TreeMap<>();
    Map<String, Set<String>> nested = new TreeMap<>();
    for (JavaClass c : candidates) {
      if (!visible(c) || c.getPackageName().contains(".internal") || c.isAnonymousClass()
          || c.isLocalClass() || c.getModifiers().contains(JavaModifier.SYNTHETIC)) {
        continue;
      }
      String written = c.getName().substring(c.getPackageName().length() + 1).replace('$', '.');
      byKey.computeIfAbsent(written, k -> new TreeSet<>()).add(c.getName());
      (c.isTopLevelClass() ? topLevel : nested)
          .computeIfAbsent(c.getSimpleName(), k -> new TreeSet<>()).add(c.getName());
    }
    Map<String, Set<String>> clashes = new TreeMap<>();
    byKey.forEach((name, types) -> {
      if (types.size() > 1) {
        clashes.put(name, types);
      }
    });
    topLevel.forEach((name, types) -> {
      if (nested.containsKey(name)) {
        Set<String> all = new TreeSet<>(types);
        all.addAll(nested.get(name));
        clashes.put(name, all);
      }
    });
    return clashes;
  }

  private static String moduleOf(JavaClass c) {
    String rest = c.getPackageName().substring("io.infx.".length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  static ArchCondition<JavaClass> exposeNoInternalTypes() {
    return new ArchCondition<>("expose no internal types") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        if (!visible(c)) {
          return;
        }
        List<String> problems = new ArrayList<>();
        c.getRawSuperclass().ifPresent(s -> report(problems, "extends", List.of(s), c.getName()));
        for (JavaType t : c.getInterfaces()) {
          report(problems, "implements", t.getAllInvolvedRawTypes(), c.getName());
        }
        for (JavaField f : c.getFields()) {
          if (api(f.getModifiers())) {
            report(problems, "field type", f.getType().getAllInvolvedRawTypes(), c.getName() + "." + f.getName());
          }
        }
        for (JavaCodeUnit m : c.getCodeUnits()) {
          if (!api(m.getModifiers()) || m.getModifiers().contains(JavaModifier.SYNTHETIC)
              || m.getModifiers().contains(JavaModifier.BRIDGE)) {
            continue;
          }
          report(problems, "returns", m.getReturnType().getAllInvolvedRawTypes(), m.getFullName());
          for (JavaType p : m.getParameterTypes()) {
            report(problems, "takes", p.getAllInvolvedRawTypes(), m.getFullName());
          }
          for (JavaClass t : m.getExceptionTypes()) {
            report(problems, "throws", Set.of(t), m.getFullName());
          }
        }
        for (String p : problems) {
          events.add(SimpleConditionEvent.violated(c, p));
        }
      }
    };
  }

  private static void report(List<String> problems, String how, Iterable<JavaClass> types, String where) {
    for (JavaClass t : types) {
      JavaClass base = t.isArray() ? t.getBaseComponentType() : t;
      if (base.getPackageName().startsWith("io.infx.") && base.getPackageName().contains(".internal")) {
        problems.add(where + " " + how + " internal type " + base.getName());
      }
    }
  }

  /** Public, and every enclosing class public too (reachable from outside the module). */
  private static boolean visible(JavaClass c) {
    for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
      if (!k.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  private static boolean api(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }
}
