import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { ConfigProblem } from "./config-error.js";
import { configKey } from "./config-key.js";
import type { PathProblem } from "./path-problem.js";

/** A parsed YAML file: its value, and what is needed to point at its lines. */
export interface YamlSource {
  /** The document as plain values (null for an empty file). */
  value: unknown;
  /** Problems of the YAML syntax itself; when there are any, `value` is not to be used. */
  syntaxProblems: ConfigProblem[];
  /** The problem with its dotted key and, when the path is in the file, its line. */
  locate(problem: PathProblem): ConfigProblem;
}

/** Parses YAML text. Duplicate keys are syntax problems (the second would silently win). */
export function parseYamlSource(text: string): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  const syntaxProblems = doc.errors.map((e) => ({
    key: `(line ${e.linePos?.[0]?.line ?? "?"})`,
    message: e.message.split("\n")[0] ?? e.message,
    fix: "fix the YAML syntax",
  }));
  return {
    value: syntaxProblems.length === 0 ? doc.toJS() : null,
    syntaxProblems,
    locate(problem) {
      const line = lineOf(doc, lines, problem.path);
      const located: ConfigProblem = { key: configKey(problem.path), message: problem.message, fix: problem.fix };
      if (line !== undefined) located.line = line;
      return located;
    },
  };
}

/**
 * The line of `path`: the key itself when the path ends at a key of a
 * mapping; for a key that is not in the file (a required key left out), the
 * line of the deepest key above it; undefined when not even the first is there.
 */
function lineOf(doc: Document, lines: LineCounter, path: readonly PropertyKey[]): number | undefined {
  let node: unknown = doc.contents;
  let line: number | undefined;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part));
      if (pair === undefined) return line;
      line = startLine(pair.key, lines) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof part === "number" && node.items[part] !== undefined) {
      node = node.items[part];
      line = startLine(node, lines) ?? line;
    } else {
      return line;
    }
  }
  return line ?? startLine(node, lines);
}

function startLine(node: unknown, lines: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range == null ? undefined : lines.linePos(range[0]).line;
}
