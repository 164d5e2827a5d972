import { type ConfigProblem, formatProblem } from "../config/config-error.js";
import { ControllerError, ControllerErrorCode } from "../errors.js";
import { secretEnvName } from "./secret-env-name.js";

/** One secret that no source had. */
export interface MissingSecret {
  name: string;
  /** The configuration keys that name it. */
  keys: string[];
  /** Each place it was looked for, with what was found there. */
  lookedIn: string[];
}

/**
 * Thrown at start when secrets named in the configuration were found
 * nowhere. Lists every missing secret at once, each with the keys that name
 * it and the places searched, so one fix-up covers them all.
 */
export class SecretNotFoundError extends ControllerError {
  override readonly name: string = "SecretNotFoundError";
  readonly missing: readonly MissingSecret[];

  constructor(missing: readonly MissingSecret[]) {
    const count = missing.length === 1 ? "a secret" : `${missing.length} secrets`;
    const lines = missing.map((m) => `  - ${describeMissingSecret(m)}`);
    super(
      ControllerErrorCode.SecretNotFound,
      `${count} named in the configuration ${missing.length === 1 ? "was" : "were"} not found:\n${lines.join("\n")}`,
      {
        hint: "give each secret as the environment variable shown, or as a file in the secrets folder (secrets.dir); see docs/configuration.md#secrets",
      },
    );
    this.missing = missing;
  }
}

/**
 * A missing secret as a configuration problem: the keys naming it, where it
 * was looked for, and how to provide it. `errand config check` and
 * `errand run` print it alike.
 */
export function missingSecretProblem(missing: MissingSecret): ConfigProblem {
  return {
    key: missing.keys.join(", "),
    message: `names the secret ${JSON.stringify(missing.name)}, which was not found (looked in: ${missing.lookedIn.join("; ")})`,
    fix: `set ${secretEnvName(missing.name)}, or write the file ${missing.name} in the secrets folder (secrets.dir)`,
  };
}

/** One line for a missing secret: {@link missingSecretProblem}, formatted as config problems are. */
export function describeMissingSecret(missing: MissingSecret): string {
  return formatProblem(missingSecretProblem(missing));
}
