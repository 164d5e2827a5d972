import { existsSync } from "node:fs";
import type { Logger } from "@errand/channel-sdk";
import type { Store } from "../../store/store.js";
import type { LoadedConfig } from "../load-for-cli.js";
import type { Common } from "./runs-options.js";

/** The commands' logger: their output is their answer, not the store's or the backend's log. */
export const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

/**
 * Opens the store of the configuration for one command, and closes it after.
 * The config and store modules are loaded here, on use, so that `errand
 * --help` and the other commands do not pay for them.
 */
export async function withStore(
  options: Common,
  body: (store: Store, loaded: LoadedConfig) => Promise<number>,
): Promise<number> {
  const [{ loadForCli, reportError }, { openStore }, { createSecretStore }] = await Promise.all([
    import("../load-for-cli.js"),
    import("../../store/open-store.js"),
    import("../../secrets/secret-store.js"),
  ]);
  let store: Store | undefined;
  try {
    const loaded = await loadForCli(options.config, false);
    const { config } = loaded;
    if (config.store.backend === "sqlite" && !existsSync(config.store.path)) {
      // Opening would create an empty store: more likely the wrong folder or --config than a new installation.
      process.stderr.write(
        `errand: there is no store at ${config.store.path} (store.path${config.file ? ` of ${config.file}` : ", embedded defaults"}); no controller has run with this configuration. Pass the --config the controller runs with.\n`,
      );
      return 1;
    }
    // Only the store's own secret: these commands need no channel or engine credentials.
    const storeSecrets: Record<string, string> = {};
    if (config.store.backend === "postgres") {
      const url = createSecretStore({ env: process.env, dir: config.secrets.dir }).resolve(config.store.urlSecret);
      if (url !== undefined) storeSecrets[config.store.urlSecret] = url;
    }
    store = await openStore(config.store, storeSecrets, quiet);
    return await body(store, loaded);
  } catch (error) {
    return reportError(error);
  } finally {
    await store?.close();
  }
}
