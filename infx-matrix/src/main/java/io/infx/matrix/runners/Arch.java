package io.infx.matrix.runners;

import io.infx.core.bind.Wire;

/** CPU architecture of a cluster's nodes. */
public enum Arch {
  @Wire("x86_64")
  X86_64,
  @Wire("aarch64")
  AARCH64
}
