import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

// The one helper of every package's tests (test/support/tmp-guard.ts fails a project whose tests leave anything).
// Every test file imports this module afresh (vitest isolates files), so each removes the folders it made once it ends.
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** A fresh folder in the temporary directory, removed with its contents when the test file that made it ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
