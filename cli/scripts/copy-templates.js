// prepack: ship the repository's templates/ inside the published CLI, where
// src/create/templates.ts looks for them (beside dist/), with the toolchain
// versions of this checkout recorded beside them: a published CLI has no
// TypeScript or vitest installed to read them from (src/create/template-versions.ts).
import { cp, rm, writeFile } from "node:fs/promises";
import { installedToolchain, VERSIONS_FILE } from "../dist/create/template-versions.js";

const from = new URL("../../templates/", import.meta.url);
const to = new URL("../templates/", import.meta.url);
await rm(to, { recursive: true, force: true });
await cp(from, to, { recursive: true });
await writeFile(new URL(VERSIONS_FILE, to), `${JSON.stringify(installedToolchain(), null, 2)}\n`);
