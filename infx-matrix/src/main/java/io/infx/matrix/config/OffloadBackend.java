package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Rule;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * The KV offload backend of an agentic deployment ({@code kv-offload-backend}), e.g. LMCache,
 * HiCache, Mooncake. Rule V33: {@code name} non-empty; {@code version} optional (framework-native
 * backends have none) but non-empty and not image provenance when given (V32).
 */
@Value.Immutable
@InfxStyle
public abstract class OffloadBackend {

  @Rule("V33.backend")
  @Size(min = 1, message = "String should have at least 1 character")
  public abstract String name();

  @Rule("V32.image-version")
  public abstract Optional<@Size(min = 1, message = "String should have at least 1 character")
      @Pattern(regexp = "(?s)(?!image:).*", message = Messages.IMAGE_VERSION) String> version();

  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  public static OffloadBackend of(String name) {
    return ImmutableOffloadBackend.builder().name(name).build();
  }

  public static OffloadBackend of(String name, String version) {
    return ImmutableOffloadBackend.builder().name(name).version(version).build();
  }
}
