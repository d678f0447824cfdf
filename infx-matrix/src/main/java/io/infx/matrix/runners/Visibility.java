package io.infx.matrix.runners;

/** Whether a volume is the same on every node ({@code shared}) or per node ({@code node-local}). */
public enum Visibility {
  SHARED,
  NODE_LOCAL
}
