import type { TokenUsage } from "@errand/channel-sdk";
import * as z from "zod";

/**
 * Largest result file read (1 MiB); a bigger one fails the run with a reason
 * naming this limit. Backends need read no more than this plus one byte.
 */
export const RESULT_FILE_MAX_BYTES = 1024 * 1024;

const said = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `is missing (${what})` : `must be ${what}`;
const text = z.string({ error: said("a string") });
const count = z
  .int({ error: said("a whole number of at least 0") })
  .min(0, { error: "must be a whole number of at least 0" });

/** The result file's schema: snake_case keys like the spec; unknown keys are refused, so a typo is not silently lost. */
const ResultFileSchema = z.strictObject({
  success: z.boolean({ error: said("true or false") }),
  summary: text.optional(),
  pull_request_url: text
    .refine((url) => url === "" || /^https?:\/\/\S+$/.test(url), { error: "must be an http(s) URL or empty" })
    .optional(),
  failure_reason: text.optional(),
  cost_usd: z
    .number({ error: said("a number of US dollars") })
    .min(0, { error: "must be at least 0" })
    .optional(),
  duration_ms: z
    .number({ error: said("a number of milliseconds") })
    .min(0, { error: "must be at least 0" })
    .optional(),
  token_usage: z
    .strictObject(
      { input_tokens: count, output_tokens: count, cached_input_tokens: count.optional() },
      { error: said("an object {input_tokens, output_tokens, cached_input_tokens}") },
    )
    .optional(),
});

const TOKEN_USAGE_KEYS = ["input_tokens", "output_tokens", "cached_input_tokens"];

/** A valid result file, in the controller's names. */
export interface ResultFile {
  success: boolean;
  summary: string;
  pullRequestUrl: string;
  failureReason: string;
  costUsd: number | undefined;
  durationMs: number | undefined;
  tokenUsage: TokenUsage | undefined;
}

/** A result file read, or every reason it could not be. */
export type ResultFileRead = { ok: true; result: ResultFile } | { ok: false; problems: string[] };

/** Reads the text of `$ERRAND_RESULT_FILE`; never throws. Each problem names the field, e.g. `success must be true or false`. */
export function readResultFile(textOfFile: string): ResultFileRead {
  const bytes = Buffer.byteLength(textOfFile);
  // A backend may read only the first RESULT_FILE_MAX_BYTES + 1 bytes, so the size is not given: only that it is over.
  if (bytes > RESULT_FILE_MAX_BYTES)
    return { ok: false, problems: [`it is larger than the limit of 1 MiB (${RESULT_FILE_MAX_BYTES} bytes)`] };
  let json: unknown;
  try {
    json = JSON.parse(textOfFile);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [textOfFile.trim() === "" ? "it is empty; write a JSON object" : `it is not valid JSON (${why})`],
    };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return { ok: false, problems: ["it must hold a JSON object"] };
  const parsed = ResultFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map(describeIssue) };
  const r = parsed.data;
  return {
    ok: true,
    result: {
      success: r.success,
      summary: r.summary ?? "",
      pullRequestUrl: r.pull_request_url ?? "",
      failureReason: r.failure_reason ?? "",
      costUsd: r.cost_usd,
      durationMs: r.duration_ms,
      tokenUsage:
        r.token_usage === undefined
          ? undefined
          : {
              inputTokens: r.token_usage.input_tokens,
              outputTokens: r.token_usage.output_tokens,
              cachedInputTokens: r.token_usage.cached_input_tokens ?? 0,
            },
    },
  };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => `"${k}"`).join(", ");
    const known = where === "" ? Object.keys(ResultFileSchema.shape) : TOKEN_USAGE_KEYS;
    return `${where === "" ? "" : `${where}: `}unknown key${issue.keys.length > 1 ? "s" : ""} ${keys}; the keys are ${known.join(", ")}`;
  }
  return `${where} ${issue.message}`.trim();
}
