import { readFileSync } from "node:fs";
import type { EngineConfig } from "./controller-config.js";
import type { PathProblem } from "./path-problem.js";
import { resolveFrom } from "./resolve-from.js";
import { defaultEngineKind, type EngineEntry } from "./schema/engines-schema.js";

/** `engines` as validated: `default` and the entries. */
export type EnginesSection = { default?: string | undefined } & Record<string, unknown>;

/** Resolves the engine entries: kinds, auth method, prompt templates (files read by {@link readPromptTemplates}). */
export function buildEngines(section: EnginesSection, templates: Readonly<Record<string, string>>): { default: string; byName: Record<string, EngineConfig> } {
  const byName: Record<string, EngineConfig> = {};
  for (const [name, value] of Object.entries(section)) {
    if (name === "default") continue;
    const entry = value as EngineEntry;
    const kind = entry.kind ?? defaultEngineKind(name);
    if (kind === undefined) continue;
    byName[name] = {
      name,
      kind,
      command: entry.command,
      args: entry.args,
      authMethod: entry.auth.method ?? (entry.auth.api_key_secret === undefined ? "none" : "api_key"),
      apiKeySecret: entry.auth.api_key_secret,
      promptVia: entry.prompt_via ?? "stdin",
      promptTemplate: entry.prompt?.template ?? templates[name],
      env: entry.env,
      image: entry.image,
      model: entry.model,
      maxTurns: entry.max_turns,
      allowedTools: entry.allowed_tools,
      disallowedTools: entry.disallowed_tools,
    };
  }
  const names = Object.keys(byName);
  return { default: section.default ?? (names.length === 1 ? (names[0] as string) : ""), byName };
}

/**
 * Reads the `prompt.template_file` of every engine entry as written (relative
 * to `baseDir`), so that a missing file is reported with the other problems
 * even when the entry has some of its own. Returns the templates by engine name.
 */
export function readPromptTemplates(engines: unknown, baseDir: string, problems: PathProblem[]): Record<string, string> {
  const templates: Record<string, string> = {};
  if (typeof engines !== "object" || engines === null) return templates;
  for (const [name, entry] of Object.entries(engines)) {
    const file = (entry as { prompt?: { template_file?: unknown } } | null)?.prompt?.template_file;
    if (typeof file !== "string" || file === "") continue;
    const text = readTemplate(resolveFrom(baseDir, file), ["engines", name, "prompt", "template_file"], problems);
    if (text !== undefined) templates[name] = text;
  }
  return templates;
}

function readTemplate(full: string, path: PropertyKey[], problems: PathProblem[]): string | undefined {
  try {
    const text = readFileSync(full, "utf8");
    if (text.trim() !== "") return text;
    problems.push({ path, message: `refers to the file ${full}, which is empty`, fix: "write the prompt template into the file" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    problems.push({ path, message: `refers to the file ${full}, which cannot be read (${code})`, fix: "create the file or fix the path (relative paths start at the config file's folder)" });
  }
  return undefined;
}
