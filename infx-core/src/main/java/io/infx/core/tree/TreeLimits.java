package io.infx.core.tree;

/**
 * Bounds on what a reader accepts, so a hostile or broken input fails fast with a clear error
 * instead of exhausting memory: the input size, the number of nodes after YAML aliases are
 * expanded (this is what stops "billion laughs" alias bombs), the number of aliases, and the
 * nesting depth.
 *
 * @param maxBytes largest accepted input, in bytes (UTF-8)
 * @param maxNodes most nodes a document may expand to, aliases counted at every use
 * @param maxAliases most alias references to collections in one document
 * @param maxDepth deepest nesting of mappings and lists
 */
public record TreeLimits(long maxBytes, int maxNodes, int maxAliases, int maxDepth) {

  /** 16 MiB, 1,000,000 nodes, 1,000 aliases, depth 64: far above any real master config. */
  public static final TreeLimits DEFAULT = new TreeLimits(16L << 20, 1_000_000, 1_000, 64);

  public TreeLimits {
    if (maxBytes < 1 || maxNodes < 1 || maxAliases < 0 || maxDepth < 1) {
      throw new IllegalArgumentException("limits must be positive: " + this);
    }
  }

  public TreeLimits withMaxBytes(long bytes) {
    return new TreeLimits(bytes, maxNodes, maxAliases, maxDepth);
  }

  public TreeLimits withMaxNodes(int nodes) {
    return new TreeLimits(maxBytes, nodes, maxAliases, maxDepth);
  }
}
