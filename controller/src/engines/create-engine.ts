import type { EngineConfig } from "../config/controller-config.js";
import { createCommandEngine } from "./command/command-engine.js";
import type { Engine } from "./engine.js";
import { createAiderEngine } from "./presets/aider-engine.js";
import { createClaudeCodeEngine } from "./presets/claude-code-engine.js";
import { createCodexEngine } from "./presets/codex-engine.js";
import { createGeminiEngine } from "./presets/gemini-engine.js";
import { createOpencodeEngine } from "./presets/opencode-engine.js";

/**
 * The engine for `engines.<name>` (docs/engines.md). Throws an
 * EngineConfigError when the configuration cannot run (a `command` engine
 * without a command).
 */
export function createEngine(config: EngineConfig): Engine {
  switch (config.kind) {
    case "command":
      return createCommandEngine(config);
    case "claude_code":
      return createClaudeCodeEngine(config);
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
