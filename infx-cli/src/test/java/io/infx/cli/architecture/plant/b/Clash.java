package io.infx.cli.architecture.plant.b;

/** Planted for {@code ArchitectureTest}: shares its simple name with {@code plant.a.Clash}. */
public final class Clash {
}
