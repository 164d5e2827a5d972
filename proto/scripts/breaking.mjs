#!/usr/bin/env node
// Guards interface v1 against breaking changes: builds the errand module
// (not the vendored third-party protos) and compares it with the frozen
// baseline image. Usage: node scripts/breaking.mjs [proto dir]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const dir = resolve(process.argv[2] ?? here);
const buf = join(here, "../node_modules/.bin/buf");
const scratch = mkdtempSync(join(tmpdir(), "errand-breaking-"));
try {
  const image = join(scratch, "current.binpb");
  execFileSync(buf, ["build", "--path", "errand", "-o", image], { cwd: dir, stdio: "inherit" });
  execFileSync(buf, ["breaking", image, "--against", join(here, "baseline/errand-v1.binpb")], {
    cwd: dir,
    stdio: "inherit",
  });
  console.error("no breaking changes against interface v1");
} catch {
  console.error(
    "\nBreaking change to interface v1. Field numbers, names and types of v1 are frozen:\n"
      + "add new fields with new numbers instead, or start errand.v2 in proto/errand/v2/.",
  );
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
