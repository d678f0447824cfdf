package io.infx.store;

/** The store contract on a real PostgreSQL (a throwaway cluster, see {@link TestPostgres}). */
class PostgresStoreTest extends StoreContract {

  @Override
  StoreLocation freshStore() throws Exception {
    return StoreLocation.postgres(TestPostgres.freshDatabase());
  }
}
