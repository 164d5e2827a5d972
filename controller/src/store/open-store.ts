import type { Logger } from "@errand/channel-sdk";
import type { StoreConfig } from "../config/controller-config.js";
import { ControllerError, ControllerErrorCode } from "../errors.js";
import { createSqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

/** Opens the store `store:` names. */
export async function openStore(config: StoreConfig, _secrets: Readonly<Record<string, string>>, logger: Logger): Promise<Store> {
  if (config.backend === "sqlite") return createSqliteStore({ path: config.path, logger });
  throw new ControllerError(ControllerErrorCode.InvalidConfig, `store.backend "${config.backend}" is not available in this version`, {
    hint: "use store.backend: sqlite (the default)",
  });
}
