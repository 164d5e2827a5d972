// prepack: ship the repository's templates/ inside the published CLI, where
// src/create/templates.ts looks for them (beside dist/), with the toolchain
// versions of this checkout recorded beside them: a published CLI has no
// TypeScript or vitest installed to read them from (src/create/template-versions.ts).
//
// The copy is a sync, file by file, each written to a temporary name and
// renamed into place, and only when its content changed: an `npm pack` of
// the CLI running meanwhile (another publish of the same checkout) never sees
// the folder missing or a file half written.
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { installedToolchain, VERSIONS_FILE } from "../dist/create/template-versions.js";

const from = fileURLToPath(new URL("../../templates/", import.meta.url));
const to = fileURLToPath(new URL("../templates/", import.meta.url));

/** Every file below `dir`, relative to it. */
async function filesIn(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** Writes `content` to `file` unless it holds it already, through a temporary file and a rename. */
async function put(file, content) {
  const current = await readFile(file).catch(() => undefined);
  if (current?.equals(content)) return;
  await mkdir(dirname(file), { recursive: true });
  // Beside the folder, not in it: a pack running meanwhile must not pick it up.
  const temporary = fileURLToPath(new URL(`../.templates-${randomUUID()}.tmp`, import.meta.url));
  await writeFile(temporary, content);
  await rename(temporary, file);
}

const sources = await filesIn(from);
for (const file of sources) await put(join(to, file), await readFile(join(from, file)));
await put(join(to, VERSIONS_FILE), Buffer.from(`${JSON.stringify(installedToolchain(), null, 2)}\n`));
const keep = new Set([...sources, VERSIONS_FILE]);
for (const file of await filesIn(to)) if (!keep.has(file)) await rm(join(to, file), { force: true });
