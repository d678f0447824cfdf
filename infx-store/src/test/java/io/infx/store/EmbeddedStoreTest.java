package io.infx.store;

/** The store contract on the embedded default (an H2 file). */
class EmbeddedStoreTest extends StoreContract {

  private int n;

  @Override
  StoreLocation freshStore() {
    return StoreLocation.embedded(tmp.resolve("store" + (n++)));
  }
}
