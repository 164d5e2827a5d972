import * as z from "zod";
import { say } from "../problem-codec.js";
import { errorFor, show } from "./kit.js";

const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** Seconds in a duration string such as `90s`, `2m`, `1h30m`; undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null || text === "") return undefined;
  const [, h = "0", m = "0", s = "0"] = match;
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/**
 * A duration: a whole number of seconds (`30`) or a string with units
 * (`30s`, `2m`, `1h30m`), from `min` to `max` seconds. Outputs seconds.
 */
export function duration(min: number, max: number, fallback: number) {
  const fix = `write seconds (${fallback}) or a duration such as ${fallback}s, 2m or 1h`;
  const error = errorFor(
    (input) => `must be a number of seconds or a duration such as 30s, 2m or 1h, got ${show(input)}`,
    fix,
  );
  return z
    .union(
      [
        z.number({ error }).int({ error }).min(min, { error }).max(max, { error }),
        z.string({ error }).regex(DURATION, { error }),
      ],
      { error },
    )
    .transform((value, ctx) => {
      const seconds = typeof value === "number" ? value : durationSeconds(value);
      if (seconds === undefined || seconds < min || seconds > max) {
        ctx.addIssue({
          code: "custom",
          input: value,
          message: say(`must be from ${min} to ${max} seconds, got ${show(value)}`, fix),
        });
        return z.NEVER;
      }
      return seconds;
    });
}
