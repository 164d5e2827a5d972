import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { type CommandMention, commandMentions, REPO_ROOT } from "./helpers/doc-snippets.js";

// The built bin, as a user runs it (build first: npm run build -w controller).
const BIN = resolve(REPO_ROOT, "controller/bin/errand.cjs");
const FILES = [
  "README.md",
  "controller/README.md",
  "CONTRIBUTING.md",
  ...readdirSync(resolve(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** `errand --help` from the bin, as a user sees it. */
function topHelp(): Promise<string> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [BIN, "--help"], (error, stdout, stderr) =>
      error ? fail(new Error(`errand --help: ${stderr}`)) : done(stdout),
    );
  });
}

/** What `errand <command> --help` prints, from the same program in this process (a spawn each would be slow). */
function commandHelp(name: string): string {
  return (
    createProgram()
      .commands.find((c) => c.name() === name)
      ?.helpInformation() ?? ""
  );
}

/** The command names of a commander help text's "Commands:" section (continuation lines are indented further). */
function commandsIn(helpText: string): Set<string> {
  const section = helpText.split(/^Commands:$/m)[1] ?? "";
  return new Set([...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1] as string));
}

const mentions: CommandMention[] = FILES.flatMap(commandMentions);
const where = (m: CommandMention) => `${m.file}:${m.line}`;

describe("every errand command the docs name exists", () => {
  it("finds the commands the guides name", () => {
    const named = new Set(mentions.map((m) => `${m.command} ${m.sub ?? ""}`.trim()));
    for (const expected of [
      "run",
      "runs show",
      "runs cancel",
      "runs retry",
      "config check",
      "config schema",
      "channels list",
      "channels check",
    ]) {
      expect(named, `no doc names errand ${expected}`).toContain(expected);
    }
  });

  it("lists each named command in errand --help, and each named subcommand in errand <command> --help", async () => {
    const top = commandsIn(await topHelp());
    const unknown = mentions
      .filter((m) => !top.has(m.command))
      .map((m) => `${where(m)}: errand ${m.command} is not in errand --help (${[...top].join(", ")})`);
    const parents = [
      ...new Set(mentions.filter((m) => top.has(m.command) && m.sub !== undefined).map((m) => m.command)),
    ];
    const subs = new Map(parents.map((p) => [p, commandsIn(commandHelp(p))] as const));
    for (const m of mentions) {
      const known = subs.get(m.command);
      // A command without subcommands takes arguments, not subcommands: only a command that has them is checked.
      if (m.sub === undefined || known === undefined || known.size === 0) continue;
      if (!known.has(m.sub))
        unknown.push(
          `${where(m)}: errand ${m.command} ${m.sub}: ${m.sub} is not a subcommand (${[...known].join(", ")})`,
        );
    }
    expect(unknown).toEqual([]);
  });
});
