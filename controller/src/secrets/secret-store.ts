import { readFileSync } from "node:fs";
import { join } from "node:path";
import { secretEnvName } from "./secret-env-name.js";
import { SECRET_NAME_PATTERN } from "./secret-name.js";

/** Where the controller finds named secrets. */
export interface SecretStore {
  /** The secret's value, or undefined when no source has it (or has it empty). */
  resolve(name: string): string | undefined;
  /** Each place the secret is looked for, in order, with what was found there: for error messages. */
  describe(name: string): string[];
}

/** Options of {@link createSecretStore}. */
export interface SecretStoreOptions {
  /** Environment to read `ERRAND_SECRET_<NAME>` from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Folder with one file per secret, laid out as Kubernetes mounts a Secret; absolute. */
  dir?: string | undefined;
  /** Further sources, asked in order after the environment and the folder (Kubernetes Secrets, say). */
  sources?: readonly SecretStore[];
}

/**
 * A secret store over the environment and, when given, a secrets folder and
 * further sources (Kubernetes Secrets). The environment wins:
 * `ERRAND_SECRET_<NAME>` overrides `<dir>/<name>`, which overrides the
 * sources, so one secret of a mounted set can be replaced without touching the mount.
 * A file loses one trailing newline (as `echo` and editors write it).
 */
export function createSecretStore(options: SecretStoreOptions = {}): SecretStore {
  const env = options.env ?? process.env;
  const dir = options.dir;
  const fromFile = (name: string): { value?: string; status: string } => {
    // A name outside the pattern could climb out of the folder (`../x`); it was refused by the config already.
    if (dir === undefined || !SECRET_NAME_PATTERN.test(name)) return { status: "not looked at" };
    try {
      const value = readFileSync(join(dir, name), "utf8").replace(/\r?\n$/, "");
      return value === "" ? { status: "empty" } : { value, status: "found" };
    } catch (error) {
      return { status: fileStatus((error as NodeJS.ErrnoException).code) };
    }
  };
  return {
    resolve(name) {
      const fromEnv = env[secretEnvName(name)];
      if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
      const file = fromFile(name).value;
      if (file !== undefined) return file;
      for (const source of options.sources ?? []) {
        const value = source.resolve(name);
        if (value !== undefined && value !== "") return value;
      }
      return undefined;
    },
    describe(name) {
      const variable = secretEnvName(name);
      const value = env[variable];
      const places = [
        `environment variable ${variable} (${value === undefined ? "not set" : value === "" ? "empty" : "set"})`,
      ];
      if (dir === undefined) places.push("no secrets folder (secrets.dir is not set)");
      else places.push(`file ${join(dir, name)} (${fromFile(name).status})`);
      for (const source of options.sources ?? []) places.push(...source.describe(name));
      return places;
    },
  };
}

function fileStatus(code: string | undefined): string {
  if (code === "ENOENT") return "not found";
  if (code === "EISDIR") return "a folder, not a file";
  if (code === "EACCES") return "not readable: permission denied";
  return `not readable: ${code ?? "unknown error"}`;
}
