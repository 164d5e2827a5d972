import { readdirSync } from "node:fs";
import { join } from "node:path";

/** A relative link found in a Markdown file: the target path (empty for `#anchor` alone) and its anchor. */
export interface MarkdownLink {
  line: number;
  path: string;
  anchor: string | undefined;
}

const SKIPPED_FOLDERS = new Set(["node_modules", "dist", ".git"]);

/** Every `*.md` file under `root`, outside node_modules, dist and .git. */
export function markdownFiles(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(path));
    else if (entry.isFile() && entry.name.endsWith(".md")) found.push(path);
  }
  return found;
}

// Code is shown, not followed: fenced blocks are blanked before links and headings are read.
function withoutFences(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return "";
    }
    return fence === undefined ? line : "";
  });
}

const INLINE_LINK = /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
const HTML_LINK = /<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g;

function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//");
}

/** The relative links of a Markdown text (inline, reference definitions and HTML `<a href>`/`<img src>`), code excluded. */
export function relativeLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutFences(text).forEach((fenced, index) => {
    const line = fenced.replace(/(`+)[^`]*?\1/g, "");
    const targets = [...line.matchAll(INLINE_LINK), ...line.matchAll(HTML_LINK)].map((m) => m[1]!);
    const definition = REFERENCE_DEFINITION.exec(line)?.[1];
    if (definition) targets.push(definition);
    for (const target of targets.filter(isRelative)) {
      const hash = target.indexOf("#");
      const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      links.push({ line: index + 1, path: path.replace(/\?.*$/, ""), anchor });
    }
  });
  return links;
}

/** GitHub's anchor for a heading's text: lowercase, punctuation other than `-` and `_` dropped, each space a `-`. */
export function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "");
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a Markdown text offers: its headings' slugs (repeats get -1, -2, …) and explicit `id`/`name` attributes. */
export function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<[a-z]+\s[^>]*?\b(?:id|name)="([^"]+)"/g)) found.add(match[1]!);
  }
  return found;
}
