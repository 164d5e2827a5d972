import type { Logger } from "@errand/channel-sdk";
import type { StoreConfig } from "../config/controller-config.js";
import { StoreError } from "../errors.js";
import { secretEnvName } from "../secrets/secret-env-name.js";
import type { Store } from "./store.js";

/**
 * Opens the store `store:` names. The PostgreSQL connection URL is the
 * value of the secret `store.url_secret` names, taken from `secrets`
 * (resolved by the caller, as every other secret of the configuration).
 */
export async function openStore(
  config: StoreConfig,
  secrets: Readonly<Record<string, string>>,
  logger: Logger,
): Promise<Store> {
  // Each store's driver is loaded only when named: pg and better-sqlite3 cost a start that uses the other.
  if (config.backend === "sqlite")
    return (await import("./sqlite/sqlite-store.js")).createSqliteStore({ path: config.path, logger });
  const url = secrets[config.urlSecret]?.trim();
  if (!url) {
    throw new StoreError(
      `store.url_secret names the secret "${config.urlSecret}", but no connection URL was resolved for it`,
      {
        hint: `put postgres://USER:PASSWORD@HOST:5432/DATABASE in ${secretEnvName(config.urlSecret)}, or in the file ${config.urlSecret} of secrets.dir`,
      },
    );
  }
  return (await import("./postgres/postgres-store.js")).createPostgresStore({ connectionString: url, logger });
}
