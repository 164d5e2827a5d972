import type * as z from "zod";
import { resolveFrom } from "../config/resolve-from.js";
import { filePath, section } from "../config/schema/kit.js";

/** `secrets` as written in errand.yaml: where named secrets are found. */
export const secretsSection = section({
  dir: filePath(
    "Folder with one file per secret (`<dir>/<name>`), as Kubernetes mounts a Secret. Unset: the environment only.",
  ).optional(),
}).meta({ description: "The secret store (see Secrets below)." });

/** `secrets`, resolved: the folder made absolute against `baseDir` (the config file's folder). */
export const secretsConfig = (baseDir: string) =>
  secretsSection.transform((s) => ({
    /** Folder with one file per secret (as Kubernetes mounts a Secret); undefined: environment only. */
    dir: resolveFrom(baseDir, s.dir),
  }));

/** `secrets`, resolved: where named secrets are looked for. */
export type SecretsConfig = z.output<ReturnType<typeof secretsConfig>>;
