import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine } from "../engine.js";
import { createOpencodeParser } from "./opencode-parser.js";
import { createPresetEngine, modelArgs } from "./preset-engine.js";
import { providerKeyEnv } from "./provider-key-env.js";

/**
 * opencode: `opencode run --format json [--model provider/model] [args]`,
 * the prompt on stdin (run reads a piped stdin as the message). The key
 * goes in the model provider's variable (see provider-key-env.ts).
 */
export function createOpencodeEngine(config: EngineConfig): Engine {
  return createPresetEngine(config, {
    kind: "opencode",
    executable: "opencode",
    promptOnStdin: true,
    apiKeyEnv: (c) => providerKeyEnv(c.model, "opencode"),
    args: (c) => ["run", "--format", "json", ...modelArgs(c), ...c.args],
    parser: createOpencodeParser,
  });
}
