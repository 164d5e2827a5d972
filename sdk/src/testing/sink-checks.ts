import { validateHeaderName, validateHeaderValue } from "node:http";
import { InvalidArgumentError } from "../errors.js";
import type { SinkBehaviour, SinkRateLimit } from "./sink-types.js";

const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Checks a script when it is given, so a mistake fails the call that made it
 * (`startSink`, `sink.behave`) with a message naming the step and field,
 * instead of an uncaught error inside the HTTP server when a request
 * arrives (Node's writeHead throws on a status such as 1000).
 */
export function checkBehaviours(list: readonly SinkBehaviour[], label: string): void {
  list.forEach((behaviour, index) => {
    const where = list.length === 1 ? label : `${label}: step ${index + 1}`;
    const bad = (what: string, hint: string) => new InvalidArgumentError(`${where}: ${what}`, { hint });
    if (typeof behaviour !== "object" || behaviour === null)
      throw bad(
        `a behaviour must be an object, got ${String(behaviour)}`,
        "pass for example { status: 503, times: 1 }",
      );
    const { status, body, headers, retryAfter, delayMs, times, json } = behaviour;
    if (status !== undefined && !(Number.isInteger(status) && status >= 100 && status <= 999)) {
      throw bad(
        `status ${String(status)} is not an HTTP status code`,
        "use a whole number from 100 to 999, such as 200, 429 or 503",
      );
    }
    if (body !== undefined && typeof body !== "string")
      throw bad(`body must be a string, got ${typeof body}`, "use json for a JSON body");
    if (json !== undefined) {
      try {
        JSON.stringify(json);
      } catch (error) {
        throw bad(
          `json cannot be serialized: ${(error as Error).message}`,
          "pass plain JSON data (no cycles, no BigInt)",
        );
      }
    }
    if (
      retryAfter !== undefined
      && !(
        typeof retryAfter === "string"
        || (typeof retryAfter === "number" && Number.isFinite(retryAfter) && retryAfter >= 0)
      )
    ) {
      throw bad(
        `retryAfter ${String(retryAfter)} is neither delay-seconds nor an HTTP-date`,
        "use a number of seconds (1, 0.5) or an HTTP-date string",
      );
    }
    const headerValues: [string, unknown][] = Object.entries(headers ?? {});
    if (retryAfter !== undefined) headerValues.push(["retry-after", String(retryAfter)]);
    for (const [name, value] of headerValues) {
      try {
        if (typeof value !== "string") throw new Error("its value is not a string");
        validateHeaderName(name);
        validateHeaderValue(name, value);
      } catch (error) {
        throw bad(
          `header ${JSON.stringify(name)} cannot be sent: ${(error as Error).message}`,
          "use a token name and a string value without line breaks",
        );
      }
    }
    if (delayMs !== undefined && !(typeof delayMs === "number" && delayMs >= 0 && delayMs <= MAX_DELAY_MS)) {
      throw bad(
        `delayMs ${String(delayMs)} is not a delay in milliseconds`,
        `use a number from 0 to ${MAX_DELAY_MS}; for "never answers" use hang: true`,
      );
    }
    if (times !== undefined && !(Number.isInteger(times) && times >= 0)) {
      throw bad(
        `times ${String(times)} is not a whole number of requests`,
        "use a whole number, or leave times out to apply to every later request",
      );
    }
  });
}

/** Checks a rate limit when it is given (see {@link checkBehaviours}). */
export function checkRateLimit(limit: SinkRateLimit, label: string): void {
  const bad = (what: string) =>
    new InvalidArgumentError(`${label}: rateLimit ${what}`, {
      hint: "pass { max: 2, perMs: 1000 } for at most 2 requests a second",
    });
  if (typeof limit !== "object" || limit === null) throw bad(`must be an object, got ${String(limit)}`);
  if (!(Number.isInteger(limit.max) && limit.max >= 0))
    throw bad(`max ${String(limit.max)} is not a whole number of requests`);
  if (!(typeof limit.perMs === "number" && limit.perMs > 0 && limit.perMs <= MAX_DELAY_MS))
    throw bad(`perMs ${String(limit.perMs)} is not a window in milliseconds`);
  if (limit.key !== undefined && typeof limit.key !== "function") throw bad("key must be a function of the request");
}
