import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine } from "../engine.js";
import { createAiderParser } from "./aider-parser.js";
import { createPresetEngine, modelArgs } from "./preset-engine.js";
import { providerKeyEnv } from "./provider-key-env.js";

/**
 * Aider: `aider --yes-always --no-pretty --message-file $ERRAND_PROMPT_FILE
 * [--model M] [args]`. The prompt is read from its file (`--message-file`,
 * so a long ticket stays out of the argument list); Aider edits and commits
 * in the git repository of its working directory and does not push or open
 * pull requests itself (docs/engines.md says how to wrap it). The key goes
 * in the model provider's variable (see provider-key-env.ts).
 */
export function createAiderEngine(config: EngineConfig): Engine {
  return createPresetEngine(config, {
    kind: "aider",
    executable: "aider",
    promptOnStdin: false,
    apiKeyEnv: (c) => providerKeyEnv(c.model, "aider"),
    args: (c, input) => [
      "--yes-always",
      "--no-pretty",
      "--message-file",
      input.files.prompt,
      ...modelArgs(c),
      ...c.args,
    ],
    parser: createAiderParser,
  });
}
