package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Positive;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * How a recipe starts, checks and stops the engine. Every field is optional so a recipe can take
 * the rest from its {@code preset}; after that, {@code command} is required.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class ServerSection implements SelfChecking {

  /**
   * Command template ({@link CommandTemplate}) that starts an OpenAI-compatible server on
   * {@code ${PORT}}, run by {@code bash -c} with the point's environment plus {@link #env()}.
   */
  public abstract Optional<String> command();

  /** Flags appended in order when their condition holds (TP/EP/DP-attention switches). */
  public abstract List<ConditionalFlag> flags();

  /** Extra environment of the server (values are templates); also readable as ${NAME} in the command. */
  public abstract Map<String, String> env();

  /** Readiness endpoint polled until it answers 200 while the process lives. Default {@code /health}. */
  public abstract Optional<String> health();

  /** Seconds the server may take to become ready (start-up deadline). Default 600. */
  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> startupTimeout();

  /** Seconds between SIGTERM and SIGKILL at teardown. Default 30. */
  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> stopTimeout();

  @Override
  public void check(Checks checks) {
    command().ifPresent(c -> {
      try {
        CommandTemplate.parse(c);
      } catch (IllegalArgumentException e) {
        checks.fail("recipe.template", "command", e.getMessage());
      }
    });
    env().forEach((k, v) -> {
      if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        checks.fail("recipe.env-name", "env/" + k, "environment variable names are [A-Za-z_][A-Za-z0-9_]*, got '" + k + "'");
      }
      try {
        CommandTemplate.parse(v);
      } catch (IllegalArgumentException e) {
        checks.fail("recipe.template", "env/" + k, e.getMessage());
      }
    });
    health().filter(h -> !h.startsWith("/")).ifPresent(h ->
        checks.fail("recipe.health", "health", "health must be a path starting with '/', got '" + h + "'"));
  }

  /** This section with every field of {@code override} that is set winning (env and flags: merged / appended). */
  ServerSection overriddenBy(ServerSection override) {
    ImmutableServerSection.Builder b = ImmutableServerSection.builder().from(this);
    override.command().ifPresent(b::command);
    override.health().ifPresent(b::health);
    override.startupTimeout().ifPresent(b::startupTimeout);
    override.stopTimeout().ifPresent(b::stopTimeout);
    java.util.Map<String, String> env = new java.util.LinkedHashMap<>(env());
    env.putAll(override.env());
    b.env(env);
    if (override.command().isPresent()) {
      b.flags(override.flags()); // a new command brings its own flags
    } else {
      b.addAllFlags(override.flags());
    }
    return b.build();
  }
}
