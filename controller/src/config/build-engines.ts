import { readFileSync } from "node:fs";
import type { EngineConfig } from "./controller-config.js";
import type { PathProblem } from "./path-problem.js";
import { resolveFrom } from "./resolve-from.js";
import { defaultEngineKind, type EngineEntry } from "./schema/engines-schema.js";

/** `engines` as validated: `default` and the entries. */
export type EnginesSection = { default?: string | undefined } & Record<string, unknown>;

/** Resolves the engine entries: kinds, auth method, prompt template files (read now, relative to `baseDir`). */
export function buildEngines(section: EnginesSection, baseDir: string, problems: PathProblem[]): { default: string; byName: Record<string, EngineConfig> } {
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
      promptTemplate: entry.prompt?.template ?? readTemplate(entry.prompt?.template_file, baseDir, ["engines", name, "prompt", "template_file"], problems),
      env: entry.env,
      image: entry.image,
      model: entry.model,
    };
  }
  const names = Object.keys(byName);
  return { default: section.default ?? (names.length === 1 ? (names[0] as string) : ""), byName };
}

function readTemplate(file: string | undefined, baseDir: string, path: PropertyKey[], problems: PathProblem[]): string | undefined {
  const full = resolveFrom(baseDir, file);
  if (full === undefined) return undefined;
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
