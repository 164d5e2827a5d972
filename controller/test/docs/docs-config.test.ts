import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { type CommandOutput, runConfigCheck } from "../../src/cli/commands/config.js";
import { controllerConfigJsonSchema } from "../../src/config/controller-config-json-schema.js";
import { type FencedBlock, fencedBlocks, isWholeConfig, REPO_ROOT } from "./helpers/doc-snippets.js";
import { placeholdersFor } from "./helpers/placeholders.js";

// The built bin, as a user runs it (build first: npm run build -w controller).
const BIN = resolve(REPO_ROOT, "controller/bin/errand.cjs");
const DOCS = [
  "docs/operators-guide.md",
  "docs/configuration.md",
  "docs/notifications.md",
  "docs/engines.md",
  "docs/author-guide.md",
  "docs/protocol.md",
];
const SECTIONS = new Set(
  Object.keys((controllerConfigJsonSchema() as { properties: Record<string, unknown> }).properties),
);

/** `text` written as errand.yaml in a fresh folder, with what it needs around it (placeholders.ts). */
function prepare(text: string): { dir: string; file: string; env: Record<string, string> } {
  const dir = tempDir("errand-docs-");
  const file = join(dir, "errand.yaml");
  writeFileSync(file, text);
  return { dir, file, env: { PATH: process.env.PATH ?? "", HOME: dir, ...placeholdersFor(text, dir) } };
}

/** `errand config check --json --config FILE` through the bin, in its own process. */
function checkWithBin(text: string): Promise<CommandOutput> {
  const { dir, file, env } = prepare(text);
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, "config", "check", "--json", "--config", file],
      { cwd: dir, env },
      (error, stdout, stderr) => {
        done({ exitCode: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The same command body the bin runs, in this process: one spawn per block would make this file slow. */
function check(text: string): Promise<CommandOutput> {
  const { dir, file, env } = prepare(text);
  return runConfigCheck({ config: file, json: true, env, cwd: dir });
}

function problemsOf(out: CommandOutput): string {
  try {
    const report = JSON.parse(out.stdout) as { problems: Array<{ key: string; message: string; fix?: string }> };
    return report.problems.map((p) => `${p.key}: ${p.message}${p.fix ? `; ${p.fix}` : ""}`).join("\n");
  } catch {
    return out.stderr;
  }
}

const configs: FencedBlock[] = DOCS.flatMap(fencedBlocks).filter(
  (b) => b.lang === "yaml" && isWholeConfig(b.text, SECTIONS),
);

describe("every errand.yaml in the docs passes errand config check", () => {
  it("finds the configurations of each guide", () => {
    for (const file of DOCS)
      expect(
        configs.some((b) => b.file === file),
        `no whole errand.yaml found in ${file}`,
      ).toBe(true);
  });

  // A doc's channels name plugins the reader installs (team_alerts, /opt/plugins/...): config check reports that
  // they are not installed here, which is right on this machine and not a fault of the document.
  const notInstalledHere = (p: { key: string; message: string }) =>
    /^notifications\.channels\[\d+\]$/.test(p.key) && /unknown backend|does not exist/.test(p.message);

  it.each(configs.map((b) => [`${b.file}:${b.line}`, b] as const))("%s", async (_name, block) => {
    const out = await check(block.text);
    const report = JSON.parse(out.stdout) as { problems: Array<{ key: string; message: string }> };
    const problems = report.problems.filter((p) => !notInstalledHere(p));
    expect(problems, `${block.file}:${block.line} fails errand config check:\n${problemsOf(out)}`).toEqual([]);
  });

  it("gives the same verdicts through the errand bin, and can fail", async () => {
    const [good, bad] = await Promise.all([
      checkWithBin((configs[0] as FencedBlock).text),
      checkWithBin("webhok:\n  port: 8080\n"),
    ]);
    expect(good.exitCode, problemsOf(good)).toBe(0);
    expect(bad.exitCode).toBe(1);
    expect(problemsOf(bad)).toContain("did you mean webhook?");
  });
});
