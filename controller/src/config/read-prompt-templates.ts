import { readFileSync } from "node:fs";
import type { PathProblem } from "./path-problem.js";
import { resolveFrom } from "./resolve-from.js";

/**
 * Reads the `prompt.template_file` of every engine entry as written (relative
 * to `baseDir`), so that a missing file is reported with the other problems
 * even when the entry has some of its own. Returns the templates by engine name.
 */
export function readPromptTemplates(
  engines: unknown,
  baseDir: string,
  problems: PathProblem[],
): Record<string, string> {
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
    problems.push({
      path,
      message: `refers to the file ${full}, which is empty`,
      fix: "write the prompt template into the file",
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    problems.push({
      path,
      message: `refers to the file ${full}, which cannot be read (${code})`,
      fix: "create the file or fix the path (relative paths start at the config file's folder)",
    });
  }
  return undefined;
}
