import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { ConfigError, formatProblem, loadControllerConfig } from "../../src/config/index.js";
import { createEngine } from "../../src/engines/create-engine.js";
import { EngineConfigError } from "../../src/engines/engine-config-error.js";
import { engineConfig, FIXTURES, runEngine } from "./helpers/run-engine.js";

const dir = tempDir("errand-agent-limits-");
let n = 0;

/** The config problems of an `engines` section, as the loader formats them. */
async function problems(engines: string): Promise<string[]> {
  const file = join(dir, `c${n++}.yaml`);
  writeFileSync(file, `engines:\n${engines}`);
  try {
    await loadControllerConfig(file, { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map(formatProblem);
  }
  return [];
}

describe("agent limits as engine options", () => {
  test("claude_code takes max_turns, allowed_tools and disallowed_tools", async () => {
    const file = join(dir, `c${n++}.yaml`);
    writeFileSync(
      file,
      "engines:\n  claude_code:\n    max_turns: 25\n    allowed_tools: [Read, Edit, 'Bash(git diff:*)']\n    disallowed_tools: [WebFetch]\n",
    );
    const { config } = await loadControllerConfig(file, { env: {} });
    expect(config.engines.byName.claude_code).toMatchObject({
      maxTurns: 25,
      allowedTools: ["Read", "Edit", "Bash(git diff:*)"],
      disallowedTools: ["WebFetch"],
    });
  });

  test.each(["codex", "gemini", "opencode", "aider"])(
    "%s refuses each of them with a config error naming the preset",
    async (kind) => {
      const found = await problems(
        `  ${kind}:\n    max_turns: 10\n    allowed_tools: [Read]\n    disallowed_tools: [Bash]\n`,
      );
      for (const [key, line] of [
        ["max_turns", 3],
        ["allowed_tools", 4],
        ["disallowed_tools", 5],
      ]) {
        expect(found).toContain(
          `engines.${kind}.${key} (line ${line}): is not supported by the ${kind} preset (its CLI has no command-line flag for it); remove ${key}; it applies to claude_code only`,
        );
      }
    },
  );

  test("a command engine refuses them too", async () => {
    const found = await problems("  mine:\n    kind: command\n    command: [./agent.sh]\n    max_turns: 10\n");
    expect(found).toEqual([
      "engines.mine.max_turns (line 5): is not supported by a command engine (pass your own arguments in command); remove max_turns; it applies to claude_code only",
    ]);
  });

  test("bad values are refused with the fix", async () => {
    const found = await problems(
      "  claude_code:\n    max_turns: 0\n    allowed_tools: []\n    disallowed_tools: [--all]\n",
    );
    expect(found).toEqual([
      expect.stringContaining("engines.claude_code.max_turns (line 3): must be a whole number from 1 to 10000, got 0"),
      expect.stringContaining("engines.claude_code.allowed_tools (line 4): is an empty list"),
      expect.stringContaining("engines.claude_code.disallowed_tools (line 5): has an item starting with '-'"),
    ]);
  });

  test("createEngine refuses a hand-made config the same way", () => {
    const make = () => createEngine(engineConfig("opencode", { maxTurns: 5 }));
    expect(make).toThrow(EngineConfigError);
    expect(make).toThrow(
      "engines.opencode.max_turns is not supported by the opencode preset (its CLI has no command-line flag for it)",
    );
  });

  test("claude_code gets them as flags, with the cost guardrail as --max-budget-usd", async () => {
    const config = engineConfig("claude_code", {
      command: [join(FIXTURES, "claude")],
      maxTurns: 25,
      allowedTools: ["Read", "Bash(git diff:*)"],
      disallowedTools: ["WebFetch"],
      model: "opus",
    });
    const run = await runEngine(createEngine(config, { maxCostUsd: 0.5 }));
    expect(run.record?.argv).toEqual([
      ...[
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-mode",
        "dontAsk",
        "--max-turns",
        "25",
        "--max-budget-usd",
        "0.5",
      ],
      ...["--allowedTools", "Read", "Bash(git diff:*)", "--disallowedTools", "WebFetch", "--model", "opus"],
    ]);
  });

  test("without allowed_tools claude_code keeps bypassPermissions, and without a cost limit no budget", async () => {
    const run = await runEngine(
      createEngine(engineConfig("claude_code", { command: [join(FIXTURES, "claude")], disallowedTools: ["WebFetch"] })),
    );
    expect(run.record?.argv).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--permission-mode",
      "bypassPermissions",
      "--disallowedTools",
      "WebFetch",
    ]);
  });
});
