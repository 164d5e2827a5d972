#!/usr/bin/env node
// Writes the key reference of docs/configuration.md from the schema of errand.yaml.
// Reads the built controller: run `npm run build -w @errand/controller` first.
// Usage: node controller/scripts/gen-config-docs.mjs [--check] [docs-file]
// --check: exit 1 (and change nothing) when the file is not up to date.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const check = args.includes("--check");
const target =
  args.find((a) => a !== "--check") ?? fileURLToPath(new URL("../../docs/configuration.md", import.meta.url));

let reference;
try {
  reference = await import(new URL("../dist/config/config-reference.js", import.meta.url).href);
} catch (error) {
  process.stderr.write(
    `gen-config-docs: cannot load the built controller (${error.code ?? error.message}); run npm run build -w @errand/controller first\n`,
  );
  process.exit(1);
}
const before = readFileSync(target, "utf8");
const after = reference.replaceGeneratedReference(before, reference.renderConfigReference());
if (after === before) {
  process.stdout.write(`${target} is up to date\n`);
} else if (check) {
  process.stderr.write(`${target} is out of date: run node controller/scripts/gen-config-docs.mjs\n`);
  process.exit(1);
} else {
  writeFileSync(target, after);
  process.stdout.write(`wrote ${target}\n`);
}
