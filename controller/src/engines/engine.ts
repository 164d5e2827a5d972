import type { TaskResult, Ticket, TokenUsage } from "@errand/channel-sdk";

/** The engine kinds: `command` runs any executable; the others are presets for coding-agent CLIs. */
export const ENGINE_KINDS = ["command", "claude_code", "codex", "gemini", "opencode", "aider"] as const;

/** One of {@link ENGINE_KINDS}. */
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** What an engine is given to build its invocation. Paths are absolute. */
export interface EngineInput {
  ticket: Ticket;
  runId: string;
  /** The prompt built from the ticket (see prompt.ts). */
  prompt: string;
  /** The run's fresh working directory. */
  workspace: string;
  /** Files the backend wrote (prompt, ticket JSON) and the one the engine may write (result). */
  files: { prompt: string; ticket: string; result: string };
  /** The engine's API key from the secret store, when `auth.api_key_secret` names one. */
  apiKey: string | undefined;
  /** A follow-up's parent session to resume (claude_code's `--resume`); engines that cannot resume ignore it. */
  resumeSessionId?: string | undefined;
  /** The parent run's workspace, where that session was started (Claude Code files sessions by working directory). */
  resumeWorkspace?: string | undefined;
}

/** Limits of every run that come from outside the engine's entry. */
export interface EngineLimits {
  /** `guardrails.max_cost_per_job`: engines whose CLI can stop itself at a cost get it (claude_code's `--max-budget-usd`). */
  maxCostUsd?: number | undefined;
}

/** How to start the engine process. */
export interface EngineInvocation {
  command: string;
  args: string[];
  /** Environment of the process beyond the base the backend gives every engine (PATH, HOME, LANG, ERRAND_*). */
  env: Record<string, string>;
  /** Written to the process's stdin, which is then closed; undefined: stdin is empty. */
  stdin: string | undefined;
}

/** Something the engine reported while it ran. */
export type EngineEvent =
  /** A line worth telling a person: an assistant message, a tool step, a status line. */
  | { kind: "progress"; text: string; detail: "message" | "tool" | "status" }
  /**
   * The cost so far, in USD (cumulative, not a delta). `final`: the engine's
   * last word (its result), sent once it has finished working; the cost
   * guardrail stops a run on a cost over the limit only when it is not final.
   */
  | { kind: "cost"; usd: number; final?: boolean }
  /** Token usage so far (cumulative). */
  | { kind: "usage"; usage: TokenUsage }
  /** The engine's session id (Claude Code's `session_id`): stored with the run, so a follow-up may resume it. */
  | { kind: "session"; id: string };

/** How the engine process ended, as the backend saw it. */
export interface EngineExit {
  /** Exit code, when it exited on its own. */
  exitCode: number | undefined;
  /** The signal that ended it, when one did. */
  signal: string | undefined;
  /** Text of the result file ($ERRAND_RESULT_FILE), when the engine wrote one. */
  resultFile: string | undefined;
  durationMs: number;
  /**
   * True when the backend did not see the process end (a run that finished
   * while the controller was down): there is no exit code to judge, so the
   * result file alone decides.
   */
  exitUnknown?: boolean;
  /** Why the result file could not be read (too large, not a regular file); the file counts as absent. */
  resultFileProblem?: string | undefined;
}

/** Turns an engine's output into events while it runs, and into a TaskResult at the end. */
export interface OutputParser {
  /** One line of output (without its newline). Must never throw. */
  line(stream: "stdout" | "stderr", text: string): EngineEvent[];
  /**
   * The run's result. Never throws: output that cannot be read gives
   * `success: false` with a failure reason that says what was wrong.
   */
  finish(exit: EngineExit): TaskResult;
}

/**
 * A configured engine (`engines.<name>`). It knows how to start its
 * process and how to read its output; where the process runs is the
 * ExecutionBackend's business, so the same engine serves local and
 * Kubernetes runs.
 */
export interface Engine {
  /** Its key under `engines`. */
  readonly name: string;
  readonly kind: EngineKind;
  /** Container image for cluster backends; undefined for local-only engines. */
  readonly image: string | undefined;
  /** Environment variable the API key is passed in (`ANTHROPIC_API_KEY`, ...); undefined when none. */
  readonly apiKeyEnv: string | undefined;
  invocation(input: EngineInput): EngineInvocation;
  parser(): OutputParser;
}
