package io.infx.cli.architecture.plant.a;

/** Planted for {@code ArchitectureTest}: shares its simple name with {@code plant.b.Clash}. */
public final class Clash {

  /** Nested builders of two types may share a name: they are written {@code Clash.Builder}. */
  public static final class Builder {
  }
}
