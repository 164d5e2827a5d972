import type { EngineKind } from "../engine.js";

/** The agent limits an engine entry may set (`engines.<name>.<key>`). */
export const AGENT_LIMIT_KEYS = ["max_turns", "allowed_tools", "disallowed_tools"] as const;

/** One of {@link AGENT_LIMIT_KEYS}. */
export type AgentLimitKey = (typeof AGENT_LIMIT_KEYS)[number];

/**
 * The limits each kind's CLI has a command-line flag for. Only Claude Code
 * documents them (`--max-turns`, `--allowedTools`, `--disallowedTools`);
 * the others keep such settings in their own config files, if anywhere, so
 * the controller refuses the key rather than ignore it.
 */
const SUPPORTED: Readonly<Record<EngineKind, readonly AgentLimitKey[]>> = {
  claude_code: AGENT_LIMIT_KEYS,
  codex: [],
  gemini: [],
  opencode: [],
  aider: [],
  command: [],
};

/** The limit keys that are set on an entry of this kind but that its CLI cannot take. */
export function unsupportedLimits(
  kind: EngineKind,
  set: Readonly<Partial<Record<AgentLimitKey, unknown>>>,
): AgentLimitKey[] {
  return AGENT_LIMIT_KEYS.filter((key) => set[key] !== undefined && !SUPPORTED[kind].includes(key));
}

/** What a refusal of `key` for `kind` says, and how to fix it. */
export function unsupportedLimitProblem(kind: EngineKind, key: AgentLimitKey): { message: string; fix: string } {
  const who =
    kind === "command"
      ? "a command engine (pass your own arguments in command)"
      : `the ${kind} preset (its CLI has no command-line flag for it)`;
  const takers = Object.entries(SUPPORTED).flatMap(([k, keys]) => (keys.includes(key) ? [k] : []));
  return { message: `is not supported by ${who}`, fix: `remove ${key}; it applies to ${takers.join(", ")} only` };
}
