import type { Pool } from "pg";
import type { Store } from "../store.js";

/** What every group of operations of the PostgreSQL store works with. */
export interface PostgresContext {
  pool: Pool;
  /** Milliseconds since the epoch: every time the store writes comes from here, not from the server's clock. */
  now: () => number;
}

/** Some methods of the Store, as a group of operations implements them (the store wraps them). */
export type StoreOps<K extends keyof Store> = Pick<Store, K>;
