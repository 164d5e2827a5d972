import type * as z from "zod";
import type { PathProblem } from "../config/path-problem.js";
import { commandFrom } from "../config/resolve-from.js";
import type { EngineKind } from "./engine.js";
import { defaultEngineKind, type EngineEntry, enginesSchema } from "./engines-schema.js";
import { checkPromptTemplate } from "./prompt.js";

/** An entry resolved: its kind decided, a relative executable made absolute, the template file's text in place. */
function resolveEntry(
  name: string,
  kind: EngineKind,
  entry: EngineEntry,
  baseDir: string,
  template: string | undefined,
) {
  return {
    name,
    kind,
    /** `command` engines: the executable and its arguments. Presets: an override of the CLI's path (default its usual name on PATH). */
    command: entry.command && commandFrom(baseDir, entry.command),
    /** Extra arguments appended to a preset's own. */
    args: entry.args,
    /** `auth.method`: `api_key` (the key from `auth.api_key_secret`) or `none`. */
    authMethod:
      entry.auth.method ?? (entry.auth.api_key_secret === undefined ? ("none" as const) : ("api_key" as const)),
    /** Secret name from `auth.api_key_secret`. */
    apiKeySecret: entry.auth.api_key_secret,
    /** `command` engines: how the prompt is given (`stdin` or `file`; the file path is always in $ERRAND_PROMPT_FILE). */
    promptVia: entry.prompt_via ?? ("stdin" as const),
    /** Prompt template (the built-in one when unset); placeholders in docs/operators-guide.md. */
    promptTemplate: entry.prompt?.template ?? template,
    /** Extra environment variables for the engine process (no secrets: those come by name). */
    env: entry.env,
    /** Container image for cluster backends. */
    image: entry.image,
    /** Preset option: model name passed to the CLI, when set. */
    model: entry.model,
    // The claude_code limits are optional keys of EngineConfig: absent unless written.
    ...(entry.max_turns === undefined ? {} : { maxTurns: entry.max_turns }),
    ...(entry.allowed_tools === undefined ? {} : { allowedTools: entry.allowed_tools }),
    ...(entry.disallowed_tools === undefined ? {} : { disallowedTools: entry.disallowed_tools }),
    // Variables that get the repository token (`repositories.codehost_a`): absent unless written.
    ...(entry.repository_token_env.length === 0 ? {} : { repositoryTokenEnv: entry.repository_token_env }),
  };
}

/**
 * `engines`, resolved: `default` decided (the only entry when there is one)
 * and each entry by name. `baseDir` is the config file's folder; `templates`
 * holds the text of each entry's `prompt.template_file`, read beforehand.
 */
export const enginesConfig = (baseDir: string, templates: Readonly<Record<string, string>>) =>
  enginesSchema.transform((engines) => {
    const byName: Record<string, ReturnType<typeof resolveEntry>> = {};
    for (const [name, value] of Object.entries(engines)) {
      if (name === "default") continue;
      const entry = value as EngineEntry;
      const kind = entry.kind ?? defaultEngineKind(name);
      if (kind !== undefined) byName[name] = resolveEntry(name, kind, entry, baseDir, templates[name]);
    }
    const names = Object.keys(byName);
    return { default: engines.default ?? (names.length === 1 ? (names[0] as string) : ""), byName };
  });

/** `engines.<name>`, resolved. */
export type EngineConfig = z.output<ReturnType<typeof enginesConfig>>["byName"][string];

/** Problems of each engine's prompt template (the file's text is known only once it was read, so not in the schema). */
export function promptTemplateProblems(byName: Readonly<Record<string, EngineConfig>>): PathProblem[] {
  return Object.values(byName).flatMap((engine) =>
    (engine.promptTemplate === undefined ? [] : checkPromptTemplate(engine.promptTemplate)).map((message) => ({
      path: ["engines", engine.name, "prompt"],
      message,
      fix: "correct the template; docs/engines.md lists the placeholders",
    })),
  );
}
