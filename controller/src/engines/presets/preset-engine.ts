import type { EngineConfig } from "../../config/controller-config.js";
import type { Engine, EngineInput, EngineKind, OutputParser } from "../engine.js";
import { errandEnv } from "../errand-env.js";

/** What a preset knows about its CLI. */
export interface PresetSpec {
  kind: Exclude<EngineKind, "command">;
  /** The CLI's usual name, looked up on PATH, unless `command` overrides it. */
  executable: string;
  /** Every argument after the executable (and after `command`'s own arguments), `config.args` included where the CLI accepts them. */
  args(config: EngineConfig, input: EngineInput): string[];
  /** True: the prompt goes to stdin; false: the CLI reads it from $ERRAND_PROMPT_FILE (named in `args`). */
  promptOnStdin: boolean;
  /** The variable the CLI reads its API key from, for this config (it may depend on the model's provider). */
  apiKeyEnv(config: EngineConfig): string;
  parser(): OutputParser;
}

/**
 * An engine for a coding-agent CLI. `command` replaces the executable (its
 * first element) and may add leading arguments (`["npx", "claude"]`); the
 * API key goes in the CLI's own variable when `auth.method` is `api_key`,
 * and with `none` the CLI uses whatever login it has.
 */
export function createPresetEngine(config: EngineConfig, spec: PresetSpec): Engine {
  const [command = spec.executable, ...leading] = config.command ?? [];
  const apiKeyEnv = config.authMethod === "api_key" ? spec.apiKeyEnv(config) : undefined;
  return {
    name: config.name,
    kind: spec.kind,
    image: config.image,
    apiKeyEnv,
    invocation(input) {
      const env: Record<string, string> = { ...config.env, ...errandEnv(input) };
      if (apiKeyEnv !== undefined && input.apiKey !== undefined) env[apiKeyEnv] = input.apiKey;
      return {
        command,
        args: [...leading, ...spec.args(config, input)],
        env,
        stdin: spec.promptOnStdin ? input.prompt : undefined,
      };
    },
    parser: spec.parser,
  };
}

/** `["--model", model]`, or nothing when no model is set. */
export function modelArgs(config: EngineConfig): string[] {
  return config.model === undefined ? [] : ["--model", config.model];
}
