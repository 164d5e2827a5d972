import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { parse } from "yaml";

/** The repository root, for reading the docs and naming them in failures. */
export const REPO_ROOT = resolve(import.meta.dirname, "../../../..");

/** A fenced block of a markdown file. */
export interface FencedBlock {
  /** Path from the repository root. */
  file: string;
  /** Line of the opening fence, 1-based. */
  line: number;
  lang: string;
  text: string;
}

/** Every fenced block (```lang ... ```) of `file`, a path from the repository root. */
export function fencedBlocks(file: string): FencedBlock[] {
  const lines = readFileSync(resolve(REPO_ROOT, file), "utf8").split("\n");
  const blocks: FencedBlock[] = [];
  let open: { line: number; lang: string; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^(\s*)```(\S*)/.exec(text);
    if (open === undefined) {
      if (fence) open = { line: index + 1, lang: fence[2] ?? "", body: [] };
      return;
    }
    if (fence && fence[2] === "") {
      blocks.push({
        file: relative(REPO_ROOT, resolve(REPO_ROOT, file)),
        line: open.line,
        lang: open.lang,
        text: open.body.join("\n"),
      });
      open = undefined;
      return;
    }
    open.body.push(text);
  });
  return blocks;
}

/** The comment that marks a YAML block as a whole errand.yaml even when it would not look like one. */
const MARKER = /^#\s*errand\.yaml\b/;

/**
 * True when a YAML block is a whole configuration file rather than a piece
 * of one: marked `# errand.yaml` on its first line, or a mapping whose
 * top-level keys include one of the file's sections. A misspelt section
 * beside a right one still counts, so that `errand config check` catches it.
 */
export function isWholeConfig(text: string, sections: ReadonlySet<string>): boolean {
  const first = text.split("\n").find((l) => l.trim() !== "");
  if (first !== undefined && MARKER.test(first.trim())) return true;
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return false;
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return false;
  return Object.keys(doc).some((key) => sections.has(key));
}

/** One `errand <command> [<subcommand>]` written in a doc. */
export interface CommandMention {
  file: string;
  line: number;
  command: string;
  /** The next word, when it may be a subcommand (not an option or a placeholder). */
  sub: string | undefined;
}

/**
 * Every `errand <word> [<word>]` inside code (fenced blocks without their
 * comments, and inline code spans) of `file`. Not prose: "errand" in a
 * sentence names the project.
 */
export function commandMentions(file: string): CommandMention[] {
  const lines = readFileSync(resolve(REPO_ROOT, file), "utf8").split("\n");
  const mentions: CommandMention[] = [];
  let inFence = false;
  lines.forEach((text, index) => {
    if (/^\s*```/.test(text)) {
      inFence = !inFence;
      return;
    }
    // In a fenced block, a comment (`# errand command engine: ...`) is prose too.
    const code = inFence
      ? [text.replace(/(^|\s)#.*$/, "")]
      : [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    for (const part of code) {
      // Only `errand` in command position: a line's start, after npx, `--`, `$`, a pipe or `&&`; never `kubectl -n errand get`.
      for (const m of part.matchAll(
        /(?:^\s*|[;&|(]\s*|\bnpx\s+(?:--no-install\s+)?|\s--\s+|\$\s+|\bexec\s+)errand ([a-z][a-z-]*)(?: ([a-z][a-z-]*)(?![\w.]))?/g,
      )) {
        mentions.push({ file, line: index + 1, command: m[1] as string, sub: m[2] });
      }
    }
  });
  return mentions;
}
