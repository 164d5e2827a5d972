import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine } from "../engine.js";
import { createClaudeCodeParser } from "./claude-code-parser.js";
import { createPresetEngine, modelArgs } from "./preset-engine.js";

/**
 * Claude Code in print mode: `claude -p --output-format stream-json --verbose
 * --permission-mode bypassPermissions [--model M] [args]`, the prompt on
 * stdin. bypassPermissions because nobody is there to approve a tool call;
 * the run's workspace is the boundary (docs/engines.md says what that means).
 */
export function createClaudeCodeEngine(config: EngineConfig): Engine {
  return createPresetEngine(config, {
    kind: "claude_code",
    executable: "claude",
    promptOnStdin: true,
    apiKeyEnv: () => "ANTHROPIC_API_KEY",
    args: (c) => ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions", ...modelArgs(c), ...c.args],
    parser: createClaudeCodeParser,
  });
}
