import type { TaskResult } from "@errand/channel-sdk";
import type { Engine, EngineEvent, EngineExit, EngineInput, EngineInvocation } from "../../../src/engines/engine.js";

/** What the fixture engine saw during one run. */
export interface FixtureRecord {
  inputs: EngineInput[];
  lines: Array<{ stream: "stdout" | "stderr"; text: string }>;
  exits: Array<EngineExit & { resultFileProblem?: string }>;
}

/** Options of {@link fixtureEngine}. */
export interface FixtureEngineOptions {
  name?: string;
  /** The command line; default: node running `script` with `args`. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  stdin?: string;
  /** The API key goes into this variable of the engine's environment. */
  apiKeyEnv?: string;
  /** Makes the parser throw on every line, to show the backend survives it. */
  throwOnLine?: boolean;
  /** Makes invocation() throw. */
  throwOnInvocation?: boolean;
}

/**
 * A tiny Engine for backend tests: it runs a fixture, turns every stdout
 * line into a progress event (`cost <usd>` into a cost event), and reads
 * the result file as {success, summary, pull_request_url, failure_reason,
 * cost_usd}. It records what it was given.
 */
export function fixtureEngine(options: FixtureEngineOptions): { engine: Engine; record: FixtureRecord } {
  const record: FixtureRecord = { inputs: [], lines: [], exits: [] };
  const engine: Engine = {
    name: options.name ?? "fixture",
    kind: "command",
    image: undefined,
    apiKeyEnv: options.apiKeyEnv,
    invocation(input): EngineInvocation {
      if (options.throwOnInvocation === true) throw new Error("no command configured");
      record.inputs.push(input);
      const env = { ...options.env };
      if (options.apiKeyEnv !== undefined && input.apiKey !== undefined) env[options.apiKeyEnv] = input.apiKey;
      return { command: options.command ?? process.execPath, args: options.args ?? [], env, stdin: options.stdin };
    },
    parser() {
      return {
        line(stream, text): EngineEvent[] {
          record.lines.push({ stream, text });
          if (options.throwOnLine === true) throw new Error("parser bug");
          if (stream !== "stdout") return [];
          const cost = /^cost (\d+(?:\.\d+)?)$/.exec(text);
          if (cost !== null) return [{ kind: "cost", usd: Number(cost[1]) }];
          return [{ kind: "progress", text, detail: "status" }];
        },
        finish(exit): TaskResult {
          record.exits.push(exit);
          return readResult(exit);
        },
      };
    },
  };
  return { engine, record };
}

function readResult(exit: EngineExit): TaskResult {
  const fail = (failureReason: string): TaskResult => ({
    success: false,
    summary: "",
    pullRequestUrl: "",
    failureReason,
  });
  if (exit.resultFile === undefined) return fail(`no result file (exit code ${exit.exitCode}, signal ${exit.signal})`);
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(exit.resultFile) as Record<string, unknown>;
  } catch {
    return fail("the result file is not JSON");
  }
  return {
    success: data.success === true,
    summary: String(data.summary ?? ""),
    pullRequestUrl: String(data.pull_request_url ?? ""),
    failureReason: String(data.failure_reason ?? ""),
    costUsd: typeof data.cost_usd === "number" ? data.cost_usd : undefined,
  };
}
