import type { EngineInput } from "./engine.js";

/**
 * The `ERRAND_*` variables every engine process gets: where its run's files
 * are. Presets get them too, so a wrapper script around a CLI can use them.
 */
export function errandEnv(input: EngineInput): Record<string, string> {
  return {
    ERRAND_RUN_ID: input.runId,
    ERRAND_WORKSPACE: input.workspace,
    ERRAND_PROMPT_FILE: input.files.prompt,
    ERRAND_TICKET_FILE: input.files.ticket,
    ERRAND_RESULT_FILE: input.files.result,
  };
}
