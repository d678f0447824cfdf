package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Rule;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.immutables.value.Value;

/**
 * Name and version of an optional runtime component, e.g. the request {@code router}
 * ({@code {name: sgl-router, version: "0.2.1"}}). Rules V31/V32: both non-empty strings, and the
 * version is the component's own release, package version or source commit, never image provenance
 * (a value starting with {@code image:}).
 */
@Value.Immutable
@InfxStyle
public abstract class Component {

  @Rule("V31.component")
  @Size(min = 1, message = "String should have at least 1 character")
  public abstract String name();

  @Rule("V32.image-version")
  @Size(min = 1, message = "String should have at least 1 character")
  @Pattern(regexp = "(?s)(?!image:).*", message = Messages.IMAGE_VERSION)
  public abstract String version();

  /** Keys as written, in document order (auxiliary: not part of equality). */
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  public static Component of(String name, String version) {
    return ImmutableComponent.builder().name(name).version(version).build();
  }
}
