import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine } from "../engine.js";
import { createCodexParser } from "./codex-parser.js";
import { createPresetEngine, modelArgs } from "./preset-engine.js";

/**
 * Codex CLI: `codex exec --json --sandbox danger-full-access
 * --skip-git-repo-check [--model M] [args] -`, the prompt on stdin (`-`).
 * The agent must reach the network to push and open the pull request, which
 * the workspace-write sandbox forbids; and the workspace starts empty, not a
 * git repository. The key goes in CODEX_API_KEY, which `codex exec` reads.
 */
export function createCodexEngine(config: EngineConfig): Engine {
  return createPresetEngine(config, {
    kind: "codex",
    executable: "codex",
    promptOnStdin: true,
    apiKeyEnv: () => "CODEX_API_KEY",
    args: (c) => [
      "exec",
      "--json",
      "--sandbox",
      "danger-full-access",
      "--skip-git-repo-check",
      ...modelArgs(c),
      ...c.args,
      "-",
    ],
    parser: createCodexParser,
  });
}
