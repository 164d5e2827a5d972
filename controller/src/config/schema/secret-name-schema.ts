import * as z from "zod";
import { SECRET_NAME_PATTERN, secretNameProblem } from "../../secrets/secret-name.js";
import { say } from "../problem-codec.js";
import { errorFor, show } from "./kit.js";

/**
 * The value of a `*_secret` key: the name of a secret, never the secret.
 * A value that looks like a token or a URL is refused with how to move it.
 */
export function secretName(description: string) {
  const error = errorFor(
    (input) => `must be the name of a secret, got ${show(input)}`,
    "write the secret's name, e.g. chat-a-token",
  );
  return z
    .string({ error })
    .superRefine((value, ctx) => {
      const problem = secretNameProblem(value);
      if (problem !== undefined)
        ctx.addIssue({ code: "custom", input: value, message: say(problem.message, problem.fix) });
    })
    .meta({ description, pattern: SECRET_NAME_PATTERN.source });
}
