package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import io.infx.core.bind.Required;
import java.util.Map;
import org.immutables.value.Value;

/** The document shape of a recipe file: {@code recipes:} name → {@link Recipe}. */
@Value.Immutable
@InfxStyle
abstract class RecipeFileSchema {

  @Required
  public abstract Map<String, Recipe> recipes();
}
