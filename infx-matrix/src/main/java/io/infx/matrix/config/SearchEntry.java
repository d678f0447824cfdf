package io.infx.matrix.config;

import io.infx.core.bind.Origin;
import java.util.List;
import java.util.Optional;

/** What every kind of search-space entry shares (fixed single-node, fixed multi-node, agentic). */
public interface SearchEntry extends Concurrency {

  SpecDecoding specDecoding();

  Optional<String> srtRecipe();

  Optional<String> evalSrtRecipe();

  Optional<Component> router();

  /** The entry's KV transfer engine; always empty for single-node fixed entries. */
  Optional<String> kvP2pTransfer();

  /** Keys as written, in document order; empty when built in code. */
  List<String> keys();

  /** Where the entry was read, when it was read from a file. */
  Optional<Origin> origin();
}
