import type { Logger } from "@errand/channel-sdk";
import type { StoreConfig } from "../config/controller-config.js";
import { StoreError } from "../errors.js";
import { secretEnvName } from "../secrets/secret-env-name.js";
import { createPostgresStore } from "./postgres/postgres-store.js";
import { createSqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

/**
 * Opens the store `store:` names. The PostgreSQL connection URL is the
 * value of the secret `store.url_secret` names, taken from `secrets`
 * (resolved by the caller, as every other secret of the configuration).
 */
export async function openStore(config: StoreConfig, secrets: Readonly<Record<string, string>>, logger: Logger): Promise<Store> {
  if (config.backend === "sqlite") return createSqliteStore({ path: config.path, logger });
  const url = secrets[config.urlSecret]?.trim();
  if (!url) {
    throw new StoreError(`store.url_secret names the secret "${config.urlSecret}", but no connection URL was resolved for it`, {
      hint: `put postgres://USER:PASSWORD@HOST:5432/DATABASE in ${secretEnvName(config.urlSecret)}, or in the file ${config.urlSecret} of secrets.dir`,
    });
  }
  return createPostgresStore({ connectionString: url, logger });
}
