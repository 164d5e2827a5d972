import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine, EngineInput, EngineLimits } from "../engine.js";
import { createClaudeCodeParser } from "./claude-code-parser.js";
import { carryClaudeSession } from "./claude-code-session.js";
import { createPresetEngine, modelArgs } from "./preset-engine.js";

/**
 * Claude Code in print mode: `claude -p --output-format stream-json --verbose
 * --permission-mode bypassPermissions [limits] [--model M] [args]`, the
 * prompt on stdin. bypassPermissions because nobody is there to approve a
 * tool call; the run's workspace is the boundary (docs/engines.md says what
 * that means). The cost guardrail goes in as `--max-budget-usd`: Claude Code
 * reports its cost only in its final result, so only the CLI itself can stop
 * a run at the limit.
 */
export function createClaudeCodeEngine(config: EngineConfig, limits: EngineLimits = {}): Engine {
  return createPresetEngine(config, {
    kind: "claude_code",
    executable: "claude",
    promptOnStdin: true,
    apiKeyEnv: () => "ANTHROPIC_API_KEY",
    args: (c, input) => [
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      ...resumeArgs(c, input),
      ...limitArgs(c, limits),
      ...modelArgs(c),
      ...c.args,
    ],
    parser: () => createClaudeCodeParser({ maxBudgetUsd: limits.maxCostUsd }),
  });
}

/**
 * The permission mode and the agent limits. With `allowed_tools` the mode is
 * dontAsk, which denies what is not pre-approved: under bypassPermissions
 * every tool is approved and `--allowedTools` would restrict nothing. The
 * tool flags take one tool per argument (a rule may hold spaces: `Bash(git
 * diff:*)`) and come before `--model`, which ends their lists.
 */
function limitArgs(c: EngineConfig, limits: EngineLimits): string[] {
  const args = ["--permission-mode", c.allowedTools === undefined ? "bypassPermissions" : "dontAsk"];
  if (c.maxTurns !== undefined) args.push("--max-turns", String(c.maxTurns));
  if (limits.maxCostUsd !== undefined) args.push("--max-budget-usd", String(limits.maxCostUsd));
  if (c.allowedTools !== undefined) args.push("--allowedTools", ...c.allowedTools);
  if (c.disallowedTools !== undefined) args.push("--disallowedTools", ...c.disallowedTools);
  return args;
}

/**
 * `--resume <id>` for a follow-up whose parent recorded a session that can
 * be carried to this run's workspace (docs/operators-guide.md, "Follow-ups
 * on review"); nothing, so a fresh session, otherwise.
 */
function resumeArgs(c: EngineConfig, input: EngineInput): string[] {
  const { resumeSessionId: id, resumeWorkspace: from } = input;
  if (id === undefined || from === undefined) return [];
  const env = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR, ...c.env };
  return carryClaudeSession(id, from, input.workspace, env) ? ["--resume", id] : [];
}
