import type { TokenUsage } from "@errand/channel-sdk";
import type { EngineEvent } from "../engine.js";
import { progressText } from "../output/progress-text.js";

/**
 * Reads the progress protocol of `command` engines, one stdout line at a
 * time (docs/engines.md, "Progress lines"):
 *
 * - `::progress:: <text>`: a line worth telling a person;
 * - `::cost:: <usd>`: the cost so far, cumulative, e.g. `::cost:: 0.42`;
 * - `::usage:: <input> <output> [<cached input>]`: token counts so far.
 *
 * Any other line is only logged. A malformed directive is ignored too: the
 * run goes on and the log shows the line.
 */
export interface ProgressLines {
  read(line: string): EngineEvent[];
  /** The last valid `::cost::`, for a result file without `cost_usd`. */
  readonly costUsd: number | undefined;
  /** The last valid `::usage::`, for a result file without `token_usage`. */
  readonly tokenUsage: TokenUsage | undefined;
}

const DIRECTIVE = /^::(progress|cost|usage)::\s*(.*)$/;

/** A reader for one run. */
export function createProgressLines(): ProgressLines {
  let costUsd: number | undefined;
  let tokenUsage: TokenUsage | undefined;
  return {
    get costUsd() {
      return costUsd;
    },
    get tokenUsage() {
      return tokenUsage;
    },
    read(line) {
      const match = DIRECTIVE.exec(line.trimEnd());
      if (match === null) return [];
      const rest = (match[2] ?? "").trim();
      if (match[1] === "progress") {
        const text = progressText(rest);
        return text === undefined ? [] : [{ kind: "progress", text, detail: "status" }];
      }
      if (match[1] === "cost") {
        const usd = /^\d+(?:\.\d+)?$/.test(rest) ? Number(rest) : Number.NaN;
        if (!Number.isFinite(usd)) return [];
        costUsd = usd;
        return [{ kind: "cost", usd }];
      }
      const parts = rest.split(/\s+/);
      if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return [];
      const [input, output, cached] = parts.map(Number);
      tokenUsage = { inputTokens: input ?? 0, outputTokens: output ?? 0, cachedInputTokens: cached ?? 0 };
      return [{ kind: "usage", usage: tokenUsage }];
    },
  };
}
