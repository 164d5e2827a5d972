import type { EngineConfig } from "../config/controller-config.js";
import { createCommandEngine } from "./command/command-engine.js";
import type { Engine, EngineLimits } from "./engine.js";
import { EngineConfigError } from "./engine-config-error.js";
import { unsupportedLimitProblem, unsupportedLimits } from "./presets/agent-limits.js";
import { createAiderEngine } from "./presets/aider-engine.js";
import { createClaudeCodeEngine } from "./presets/claude-code-engine.js";
import { createCodexEngine } from "./presets/codex-engine.js";
import { createGeminiEngine } from "./presets/gemini-engine.js";
import { createOpencodeEngine } from "./presets/opencode-engine.js";

/**
 * The engine for `engines.<name>` (docs/engines.md). Throws an
 * EngineConfigError when the configuration cannot run (a `command` engine
 * without a command, a limit the kind's CLI has no flag for).
 */
export function createEngine(config: EngineConfig, limits: EngineLimits = {}): Engine {
  const refused = unsupportedLimits(config.kind, {
    max_turns: config.maxTurns,
    allowed_tools: config.allowedTools,
    disallowed_tools: config.disallowedTools,
  });
  if (refused[0] !== undefined) {
    const { message, fix } = unsupportedLimitProblem(config.kind, refused[0]);
    throw new EngineConfigError(`engines.${config.name}.${refused[0]} ${message}`, fix);
  }
  switch (config.kind) {
    case "command":
      return createCommandEngine(config);
    case "claude_code":
      return createClaudeCodeEngine(config, limits);
    case "codex":
      return createCodexEngine(config);
    case "gemini":
      return createGeminiEngine(config);
    case "opencode":
      return createOpencodeEngine(config);
    case "aider":
      return createAiderEngine(config);
  }
}
