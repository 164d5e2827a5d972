import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine } from "../engine.js";
import { EngineConfigError } from "../engine-config-error.js";
import { errandEnv } from "../errand-env.js";
import { createCommandParser } from "./command-parser.js";

/** Where a `command` engine finds its API key (when `auth.method` is `api_key`). */
export const COMMAND_API_KEY_ENV = "ERRAND_API_KEY";

/**
 * A `command` engine: any executable that follows the contract in
 * docs/engines.md (ERRAND_* files in, a JSON result file out).
 */
export function createCommandEngine(config: EngineConfig): Engine {
  const [command, ...leading] = config.command ?? [];
  if (command === undefined || command.trim() === "") {
    throw new EngineConfigError(
      `engines.${config.name}: a command engine needs a command to run`,
      `set engines.${config.name}.command, e.g. ["./agent.sh"]`,
    );
  }
  const apiKeyEnv = config.authMethod === "api_key" ? COMMAND_API_KEY_ENV : undefined;
  return {
    name: config.name,
    kind: "command",
    image: config.image,
    apiKeyEnv,
    invocation(input) {
      const env: Record<string, string> = { ...config.env, ...errandEnv(input) };
      if (apiKeyEnv !== undefined && input.apiKey !== undefined) env[apiKeyEnv] = input.apiKey;
      return {
        command,
        args: [...leading, ...config.args],
        env,
        stdin: config.promptVia === "stdin" ? input.prompt : undefined,
      };
    },
    parser: createCommandParser,
  };
}
