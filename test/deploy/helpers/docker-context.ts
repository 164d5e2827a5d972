import { cpSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";

/**
 * A `.dockerignore` as a predicate over paths relative to the context. Covers
 * the forms Docker documents: `name`, `dir/name`, `*`, `**` and `!` exceptions;
 * a folder that matches takes everything below it along.
 */
export function dockerIgnore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => ({ negate: l.startsWith("!"), pattern: toRegExp(l.replace(/^!/, "").replace(/^\/+|\/+$/g, "")) }));
  return (path) => {
    const parts = path.split("/");
    let ignored = false;
    for (const rule of rules) {
      // The path itself or any folder above it.
      const hit = parts.some((_, i) => rule.pattern.test(parts.slice(0, i + 1).join("/")));
      if (hit) ignored = !rule.negate;
    }
    return ignored;
  };
}

function toRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (pattern.startsWith("**/", i)) {
      out += "(?:.*/)?";
      i += 2;
    } else if (pattern.startsWith("**", i)) {
      out += ".*";
      i += 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/**
 * Does what `COPY sources... dest` does from a build context into a folder:
 * a folder source copies its contents, a file lands in `dest/` when `dest`
 * ends with `/` or there are several sources. Paths the context's
 * `.dockerignore` excludes are not copied.
 */
export function copyFromContext(
  context: string,
  sources: string[],
  dest: string,
  ignored: (path: string) => boolean,
): void {
  const intoFolder = dest.endsWith("/") || sources.length > 1;
  for (const source of sources) {
    if (/[*?[]/.test(source)) throw new Error(`COPY ${source}: wildcards are not supported by this test`);
    const from = join(context, source);
    const rel = relative(context, from);
    if (rel.startsWith("..")) throw new Error(`COPY ${source}: outside the build context`);
    if (rel !== "" && ignored(rel))
      throw new Error(`COPY ${source}: excluded by .dockerignore, so Docker would not find it`);
    const filter = (path: string) => {
      const r = relative(context, path);
      return r === "" || !ignored(r);
    };
    if (statSync(from).isDirectory()) {
      mkdirSync(dest, { recursive: true });
      cpSync(from, dest, { recursive: true, filter, verbatimSymlinks: true });
    } else {
      const target = intoFolder ? join(dest, basename(source)) : dest;
      mkdirSync(dirname(target), { recursive: true });
      cpSync(from, target);
    }
  }
}

/** The `.dockerignore` at the root of `context`, or a predicate that ignores nothing. */
export function readDockerIgnore(context: string): (path: string) => boolean {
  try {
    return dockerIgnore(readFileSync(join(context, ".dockerignore"), "utf8"));
  } catch {
    return () => false;
  }
}
