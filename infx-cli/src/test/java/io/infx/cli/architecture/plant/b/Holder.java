package io.infx.cli.architecture.plant.b;

/** Planted for {@code ArchitectureTest}: its nested {@code Holder.Summary} hides {@code plant.a.Summary}. */
public final class Holder {

  public static final class Builder {
  }

  public record Summary(int n) {
  }
}
