import { join } from "node:path";
import type * as z from "zod";
import { say } from "../config/problem-codec.js";
import { resolveFrom } from "../config/resolve-from.js";
import { choice, filePath, section } from "../config/schema/kit.js";
import { secretName } from "../config/schema/secret-name-schema.js";

/** Default SQLite file, relative to the config file's folder. */
export const DEFAULT_STORE_PATH = join(".errand", "errand.db");

/** `store` as written in errand.yaml: where tickets and runs are kept. */
export const storeSection = section({
  backend: choice(["sqlite", "postgres"])
    .default("sqlite")
    .meta({ description: "`sqlite` (an embedded file) or `postgres`." }),
  path: filePath(
    "SQLite file. Default: `.errand/errand.db` in the config file's folder (the working folder without a file).",
  ).optional(),
  url_secret: secretName("`postgres`: name of the secret holding the connection URL.").optional(),
})
  .superRefine((store, ctx) => {
    if (store.backend === "postgres" && store.url_secret === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["url_secret"],
        input: undefined,
        message: say(
          "is required when backend is postgres",
          "write the name of the secret holding the connection URL, e.g. errand-db-url",
        ),
      });
    }
    if (store.backend === "postgres" && store.path !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["path"],
        input: store.path,
        message: say("applies to sqlite only", "remove path, or set backend: sqlite"),
      });
    }
    if (store.backend === "sqlite" && store.url_secret !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["url_secret"],
        input: store.url_secret,
        message: say("applies to postgres only", "remove url_secret, or set backend: postgres"),
      });
    }
  })
  .meta({ description: "The durable store of tickets and runs." });

/** `store`, resolved: the SQLite path made absolute against `baseDir` (the config file's folder). */
export const storeConfig = (baseDir: string) =>
  storeSection.transform((s) =>
    // The refinement above made url_secret present for postgres.
    s.backend === "postgres"
      ? { backend: "postgres" as const, urlSecret: s.url_secret as string }
      : { backend: "sqlite" as const, path: resolveFrom(baseDir, s.path ?? DEFAULT_STORE_PATH) },
  );

/** `store`, resolved. */
export type StoreConfig = z.output<ReturnType<typeof storeConfig>>;
