package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.immutables.value.Value;

/**
 * Flags appended to the server command when a launch variable has (or has not) a value — how a
 * recipe says what InferenceX's bench scripts say with {@code if [ "$DP_ATTENTION" = "true" ]}.
 * {@code when} is {@code VAR=value} or {@code VAR!=value} (an unset variable is {@code ""});
 * {@code add} is a {@link CommandTemplate}.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class ConditionalFlag implements SelfChecking {

  private static final Pattern WHEN = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*(!=|=)\\s*(.*)");

  /** {@code VAR=value} or {@code VAR!=value}, e.g. {@code DP_ATTENTION=true}, {@code EP_SIZE!=1}. */
  public abstract String when();

  /** The flags to add, e.g. {@code --enable-dp-attention --dp-size ${TP}}. */
  public abstract String add();

  /** Whether the condition holds for these variables. */
  public boolean holds(Function<String, Optional<String>> vars) {
    Matcher m = WHEN.matcher(when().strip());
    if (!m.matches()) {
      throw new IllegalStateException("unchecked condition " + when());
    }
    String actual = vars.apply(m.group(1)).orElse("").strip();
    boolean equal = actual.equalsIgnoreCase(m.group(3).strip());
    return m.group(2).equals("=") == equal;
  }

  @Override
  public void check(Checks checks) {
    if (!WHEN.matcher(when().strip()).matches()) {
      checks.fail("recipe.flag-condition", "when", "condition must be VAR=value or VAR!=value, got '" + when() + "'");
    }
    try {
      CommandTemplate.parse(add());
    } catch (IllegalArgumentException e) {
      checks.fail("recipe.template", "add", e.getMessage());
    }
  }
}
