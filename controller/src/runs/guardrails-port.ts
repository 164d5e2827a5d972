import type { Ticket } from "@errand/channel-sdk";

/**
 * The limits the loop applies to every run, as the loop sees them: guardrails/ implements them from
 * `guardrails:` (createGuardrails), and the loop depends on this port only.
 */
/** Why a guardrail refuses or stops a run, in words for the timeline and the chat message. */
export type GuardrailVerdict = { allowed: true } | { allowed: false; reason: string };

/** The guardrails of `guardrails`, compiled once. */
export interface Guardrails {
  /** Checked before a run starts. */
  admit(ticket: Ticket): GuardrailVerdict;
  /** Run time limit in milliseconds. */
  readonly maxDurationMs: number;
  /** Cost limit in USD, undefined when there is none. */
  readonly maxCostUsd: number | undefined;
  /** True when a cost passes the limit. */
  overCost(costUsd: number | undefined): boolean;
  /** Describes a cost beyond the limit, for reasons. */
  describeCost(costUsd: number): string;
}
