import * as z from "zod";
import { say } from "../problem-codec.js";
import { section, show, text } from "./kit.js";
import { secretName } from "./secret-name-schema.js";

const FORMS = "a value, { secret: NAME }, { env: NAME } or { file: PATH }";

/** `{ secret: NAME }`, `{ env: NAME }` or `{ file: PATH }`: exactly one key. */
const reference = section(
  {
    secret: secretName(
      "Name of a secret in the secret store (ERRAND_SECRET_<NAME> or <secrets.dir>/<name>).",
    ).optional(),
    env: text({ pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, fix: "write an environment variable name, e.g. TRACKER_B_SECRET" })
      .meta({ description: "Name of an environment variable holding the secret." })
      .optional(),
    file: text({ fix: "write a file path (relative paths start at the config file's folder)" })
      .meta({
        description: "File holding the secret (one trailing newline is dropped); relative to the config file's folder.",
      })
      .optional(),
  },
  { fix: `write ${FORMS}` },
).superRefine((ref, ctx) => {
  const count = Object.values(ref).filter((v) => v !== undefined).length;
  if (count !== 1)
    ctx.addIssue({
      code: "custom",
      input: ref,
      message: say(`must have exactly one of secret, env, file (has ${count})`, `write ${FORMS}`),
    });
});

/**
 * A webhook signing secret: inline, or a reference to where it is kept.
 * YAML reads an unquoted 12345678 or true as a number or a boolean, not as
 * the text the sender was given, so those get their own message.
 */
export function secretRef(description: string) {
  return z
    .union(
      [
        z.string().min(1, { error: say("is empty", "give the secret, or remove the key to leave the source off") }),
        reference,
      ],
      {
        error: (iss: { input?: unknown }) => {
          const input = iss.input;
          if (typeof input === "number" || typeof input === "boolean") {
            return say(
              `is the ${typeof input} ${String(input)}, not a string`,
              `quote it in the YAML file ("${String(input)}"), or keep it in a secret and write { secret: NAME }`,
            );
          }
          if (input === null) return say("is empty", "give the secret, or remove the key to leave the source off");
          return say(
            `must be ${FORMS}, got ${show(input)}`,
            "write the secret inline, or point to a secret, an environment variable or a file that holds it",
          );
        },
      },
    )
    .meta({ description });
}

/** A secret reference as written. */
export type SecretRefInput = z.output<ReturnType<typeof secretRef>>;
