package io.infx.fleet.recipe;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.bind.Binder;
import io.infx.core.tree.MapNode;
import io.infx.core.tree.Node;
import io.infx.core.tree.Source;
import io.infx.core.tree.Trees;
import io.infx.fleet.LaunchEnv;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * A validated recipe file (docs/recipes.md): named recipes that map matrix rows to a server
 * launch. Loading reports every problem at once with {@code file:line:column} (the located YAML
 * tree and strict binder of infx-core, as for master configs); presets are resolved at load, so
 * a loaded file's recipes are complete.
 *
 * <pre>{@code
 * RecipeFile recipes = RecipeFile.load(Path.of("recipes.yaml"));
 * RecipeLaunch l = recipes.launchFor(row, env);   // selection + rendering
 * }</pre>
 */
public final class RecipeFile {

  /** Names of the built-in presets (resource {@code presets.yaml} beside this class). */
  public static final List<String> PRESETS = List.of("vllm", "sglang", "trtllm", "llamacpp");

  private static final Binder BINDER = Binder.strict().withRuleIds(new Binder.RuleIds(
      "recipe.unknown-key", "recipe.required", "recipe.type", "recipe.value"));

  /** Variable names treated as secrets even when the projection does not flag them. */
  private static final java.util.regex.Pattern SECRET_LIKE =
      java.util.regex.Pattern.compile("(^|_)(TOKEN|SECRET|PASSWORD|API_KEY)(_|$)",
          java.util.regex.Pattern.CASE_INSENSITIVE);

  private static volatile RecipeFile presets;

  private final String label;
  private final Path directory;
  private final Map<String, Recipe> recipes;
  private final Map<String, Location> locations;

  private RecipeFile(String label, Path directory, Map<String, Recipe> recipes, Map<String, Location> locations) {
    this.label = label;
    this.directory = directory;
    this.recipes = recipes;
    this.locations = locations;
  }

  /**
   * Loads and validates a recipe file.
   *
   * @throws InfxException kind {@code file} when it does not exist
   * @throws ValidationException kind {@code recipe-validation} listing every violation
   */
  public static RecipeFile load(Path file) {
    Source source = Source.file(file, file.toString());
    if (!source.exists()) {
      throw new InfxException(ErrorKind.FILE, "recipe file '" + file + "' does not exist");
    }
    Path dir = file.toAbsolutePath().normalize().getParent();
    return load(source, dir, true);
  }

  /** Loads recipe text (tests, embedders); relative paths resolve against {@code directory}. */
  public static RecipeFile load(Source source, Path directory) {
    return load(source, directory, true);
  }

  /** The built-in presets as a recipe file (each matches every row). */
  public static RecipeFile presets() {
    RecipeFile p = presets;
    if (p == null) {
      try (InputStream in = RecipeFile.class.getResourceAsStream("presets.yaml")) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        p = load(Source.text("presets.yaml", text), Path.of("").toAbsolutePath(), false);
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the built-in recipe presets", e);
      }
      presets = p;
    }
    return p;
  }

  private static RecipeFile load(Source source, Path directory, boolean resolvePresets) {
    Node root = Trees.readYaml(source);
    List<Violation> violations = new ArrayList<>();
    var bound = BINDER.bind(root, RecipeFileSchema.class);
    violations.addAll(bound.violations());
    Map<String, Location> where = new LinkedHashMap<>();
    Map<String, Node> nodes = new LinkedHashMap<>();
    if (root instanceof MapNode m && m.get("recipes").orElse(null) instanceof MapNode rs) {
      for (MapNode.Entry e : rs.entries()) {
        where.put(e.key(), e.keyNode().location());
        nodes.put(e.key(), e.value());
      }
    }
    if (!bound.ok()) {
      throw new ValidationException(ErrorKind.RECIPE_VALIDATION, violations);
    }
    Map<String, Recipe> resolved = new LinkedHashMap<>();
    for (Map.Entry<String, Recipe> e : bound.value().get().recipes().entrySet()) {
      Recipe r = e.getValue();
      Node node = nodes.get(e.getKey());
      if (r.preset().isPresent() && resolvePresets) {
        Optional<Recipe> base = Optional.ofNullable(presets().recipes.get(r.preset().get()));
        if (base.isEmpty()) {
          violations.add(at(node, "preset", "recipe.preset", "unknown preset '" + r.preset().get()
              + "' (built-in presets: " + String.join(", ", PRESETS) + ")"));
          continue;
        }
        r = r.over(base.get());
      }
      if (r.server().flatMap(ServerSection::command).isEmpty()) {
        violations.add(at(node, "server", "recipe.command", "recipe '" + e.getKey()
            + "' has no server.command (give one, or a preset to start from)"));
      }
      resolved.put(e.getKey(), r);
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(ErrorKind.RECIPE_VALIDATION, violations);
    }
    return new RecipeFile(source.label(), directory, Map.copyOf(resolved), where);
  }

  private static Violation at(Node recipeNode, String key, String rule, String message) {
    Node n = recipeNode;
    if (recipeNode instanceof MapNode m && m.get(key).isPresent()) {
      n = m.get(key).get();
    }
    return Violation.builder().ruleId(rule).location(n.location()).pointer(n.pointer()).message(message).build();
  }

  /** The file's label (its path). */
  public String label() {
    return label;
  }

  /** Recipes by name, presets resolved. */
  public Map<String, Recipe> recipes() {
    return recipes;
  }

  /** Where a recipe is defined. */
  public Location location(String name) {
    return locations.get(name);
  }

  /** A selected recipe and the specificity it won with. */
  public record Selected(String name, Recipe recipe, int specificity) {}

  /**
   * The most specific recipe for {@code row}.
   *
   * @throws InfxException kind {@code recipe} naming the row when no recipe matches, or when the
   *     most specific matches tie
   */
  public Selected select(RecipeRow row) {
    List<Selected> matches = new ArrayList<>();
    for (String name : new java.util.TreeSet<>(recipes.keySet())) {
      Recipe r = recipes.get(name);
      OptionalInt s = r.match().map(m -> m.specificity(row)).orElse(OptionalInt.of(0));
      if (s.isPresent()) {
        matches.add(new Selected(name, r, s.getAsInt()));
      }
    }
    if (matches.isEmpty()) {
      StringBuilder why = new StringBuilder();
      for (String name : new java.util.TreeSet<>(recipes.keySet())) {
        why.append("\n  ").append(name).append(" (").append(locations.get(name)).append("): ")
            .append(recipes.get(name).match().map(m -> m.mismatch(row)).orElse(""));
      }
      throw new InfxException(ErrorKind.RECIPE, "no recipe in " + label + " matches row " + row.describe()
          + "; the recipes and why they do not match:" + why);
    }
    int best = matches.stream().mapToInt(Selected::specificity).max().getAsInt();
    List<Selected> top = matches.stream().filter(m -> m.specificity() == best).toList();
    if (top.size() > 1) {
      throw new InfxException(ErrorKind.RECIPE, "recipes " + String.join(" and ", top.stream()
          .map(t -> "'" + t.name() + "' (" + locations.get(t.name()) + ")").toList())
          + " match row " + row.describe() + " equally specifically (" + best
          + "); make one more specific (e.g. config-keys or runner)");
    }
    return top.get(0);
  }

  /**
   * Selects the recipe for {@code row} and renders its launch with the point's environment.
   *
   * @param processEnv the invoking process's environment (the last place ${NAME} is looked up)
   * @param invocationDir the working directory of the invocation ({@code ${INVOCATION_DIR}})
   * @throws InfxException kind {@code recipe} for no or ambiguous match, or an unset variable
   */
  public RecipeLaunch launchFor(RecipeRow row, LaunchEnv env, Map<String, String> processEnv, Path invocationDir) {
    Selected s = select(row);
    Recipe r = s.recipe();
    ServerSection server = r.server().orElseThrow();
    ClientSection client = r.client().orElse(ImmutableClientSection.builder().build());
    Map<String, String> builtins = Map.of(
        "INVOCATION_DIR", invocationDir.toAbsolutePath().normalize().toString(),
        "RECIPE_DIR", directory.toString());
    Map<String, String> serverEnv = new LinkedHashMap<>();
    Function<String, Optional<String>> vars = name -> {
      if (env.secretNames().contains(name) || SECRET_LIKE.matcher(name).find()) {
        throw new IllegalArgumentException("${" + name + "} is a secret: infx never writes secret values into "
            + "commands or logs; write $${" + name + "} so the shell expands it from the server's environment");
      }
      if (serverEnv.containsKey(name)) {
        return Optional.of(serverEnv.get(name));
      }
      Optional<String> v = env.get(name);
      if (v.isPresent()) {
        return v;
      }
      return Optional.ofNullable(builtins.get(name)).or(() -> Optional.ofNullable(processEnv.get(name)));
    };
    String where = s.name() + " (" + locations.get(s.name()) + ")";
    try {
      for (Map.Entry<String, String> e : server.env().entrySet()) {
        serverEnv.put(e.getKey(), CommandTemplate.parse(e.getValue()).render(vars));
      }
      // PORT stays a shell variable: the driver picks the port when it starts the server
      Function<String, Optional<String>> shellVars = name -> name.equals(io.infx.core.launch.LaunchVariable.PORT.name()) ? Optional.empty() : vars.apply(name);
      StringBuilder cmd = new StringBuilder(renderCommand(server.command().get(), shellVars));
      for (ConditionalFlag f : server.flags()) {
        if (f.holds(vars)) {
          cmd.append(' ').append(renderCommand(f.add(), shellVars));
        }
      }
      var cs = ClientSettings.builder().backend(client.backend().orElse("vllm"))
          .useChatTemplate(client.useChatTemplate().orElse(false));
      client.endpoint().ifPresent(cs::endpoint);
      r.eval().ifPresent(e -> cs.eval(e.toSettings()));
      client.tokenizer().ifPresent(t -> cs.tokenizer(CommandTemplate.parse(t).render(vars)));
      client.extraBody().ifPresent(b -> {
        @SuppressWarnings("unchecked")
        Map<String, Object> plain = (Map<String, Object>) b.toPlain();
        cs.extraBody(plain);
      });
      ServerSpec.Command command = new ServerSpec.Command(cmd.toString(), serverEnv,
          server.health().orElse("/health"), Duration.ofSeconds(server.stopTimeout().orElse(30)));
      Map<String, String> shown = new LinkedHashMap<>();
      env.values().forEach((k, v) -> shown.put(k, env.secretNames().contains(k) ? LaunchEnv.REDACTED : v));
      return new RecipeLaunch(s.name(), locations.get(s.name()), command,
          Duration.ofSeconds(server.startupTimeout().orElse(600)), cs.build(), env.resultFilename(), shown);
    } catch (IllegalArgumentException e) {
      throw new InfxException(ErrorKind.RECIPE, "recipe " + where + " for row " + row.name() + ": " + e.getMessage(), e);
    }
  }

  /** Renders a command template; {@code ${PORT}} (and only it) is left to the shell as "$PORT". */
  private static String renderCommand(String template, Function<String, Optional<String>> vars) {
    String marker = "\u0000PORT\u0000";
    String out = CommandTemplate.parse(template).renderForShell(
        name -> name.equals(io.infx.core.launch.LaunchVariable.PORT.name()) ? Optional.of(marker) : vars.apply(name));
    return out.replace("'" + marker + "'", "\"$PORT\"").replace(marker, "\"$PORT\"");
  }

  /** The names of variables a recipe's templates read (for docs and checks). */
  public static Set<String> builtinVariables() {
    return Set.of("INVOCATION_DIR", "RECIPE_DIR", io.infx.core.launch.LaunchVariable.PORT.name());
  }
}
