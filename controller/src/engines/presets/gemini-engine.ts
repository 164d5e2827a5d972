import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine } from "../engine.js";
import { createGeminiParser } from "./gemini-parser.js";
import { createPresetEngine, modelArgs } from "./preset-engine.js";

/**
 * Gemini CLI: `gemini --output-format json --approval-mode yolo [--model M]
 * [args]`, the prompt on stdin. A piped stdin runs it headless (its headless
 * docs), and keeps a long ticket out of the argument list, which Linux caps
 * at 128 KiB per argument. yolo: nobody is there to approve a tool call.
 */
export function createGeminiEngine(config: EngineConfig): Engine {
  return createPresetEngine(config, {
    kind: "gemini",
    executable: "gemini",
    promptOnStdin: true,
    apiKeyEnv: () => "GEMINI_API_KEY",
    args: (c) => ["--output-format", "json", "--approval-mode", "yolo", ...modelArgs(c), ...c.args],
    parser: createGeminiParser,
  });
}
