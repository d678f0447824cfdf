package io.infx.cli.architecture.plant.a;

/** Planted for {@code ArchitectureTest}: a top-level name that {@code plant.b.Holder.Summary} reuses. */
public final class Summary {
}
