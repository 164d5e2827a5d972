import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { execa } from "execa";
import { afterAll } from "vitest";
import { tempDir } from "../../../../test/support/temp-dir.js";
import type { EngineConfig } from "../../../src/config/controller-config.js";
import type { Engine, EngineEvent, EngineInvocation } from "../../../src/engines/engine.js";
import { ticketFileText } from "../../../src/engines/ticket-file.js";

/** The folder of the fake CLIs and the test command engine. */
export const FIXTURES = resolve(import.meta.dirname, "../../fixtures/engines");

const root = tempDir("errand-engines-");
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;

/** A ticket like the webhook intake makes. */
export function sampleTicket(extra: Partial<Ticket> = {}): Ticket {
  return {
    id: "1234",
    title: "Parser crashes on empty input",
    description: 'Calling parse("") throws.\nExpected: an empty list.',
    ticketType: "bug_fix",
    repoUrl: "https://github.com/acme/widgets",
    externalUrl: "https://tracker.example/acme/1234",
    labels: ["bug", "errand"],
    source: "generic",
    rawEvent: { action: "opened" },
    ...extra,
  };
}

/** An EngineConfig with the loader's defaults. */
export function engineConfig(kind: EngineConfig["kind"], extra: Partial<EngineConfig> = {}): EngineConfig {
  return {
    name: kind,
    kind,
    command: undefined,
    args: [],
    authMethod: "none",
    apiKeySecret: undefined,
    promptVia: "stdin",
    promptTemplate: undefined,
    env: {},
    image: undefined,
    model: undefined,
    ...extra,
  };
}

/** What the fake recorded about its invocation (see fixtures/engines/_fake-cli.mjs). */
export interface FakeRecord {
  argv: string[];
  stdin: string;
  cwd: string;
  env: Record<string, string>;
}

/** One run of an engine, end to end. */
export interface EngineRun {
  invocation: EngineInvocation;
  events: EngineEvent[];
  result: TaskResult;
  exitCode: number | undefined;
  record: FakeRecord | undefined;
  files: { prompt: string; ticket: string; result: string };
  workspace: string;
}

/** Options of {@link runEngine}. */
export interface RunEngineOptions {
  ticket?: Ticket;
  prompt?: string;
  apiKey?: string;
  /** Variables for the process beyond the invocation's (the PATH, a scenario, a HOME shared by two runs). */
  env?: Record<string, string>;
  /** A session to resume, and the workspace it was started in (EngineInput.resumeSessionId, resumeWorkspace). */
  resumeSessionId?: string;
  resumeWorkspace?: string;
}

/**
 * Runs an engine the way a backend does: writes the prompt and ticket files,
 * spawns the invocation with execa in a fresh workspace with only PATH, HOME
 * and the invocation's environment, feeds every stdout/stderr line to the
 * parser while it runs, then finishes it with the real exit and result file.
 */
export async function runEngine(engine: Engine, options: RunEngineOptions = {}): Promise<EngineRun> {
  const dir = join(root, `run-${++runs}`);
  const workspace = join(dir, "workspace");
  mkdirSync(workspace, { recursive: true });
  const files = { prompt: join(dir, "prompt.md"), ticket: join(dir, "ticket.json"), result: join(dir, "result.json") };
  const ticket = options.ticket ?? sampleTicket();
  const prompt = options.prompt ?? `Fix ticket ${ticket.id}.`;
  writeFileSync(files.prompt, prompt);
  writeFileSync(files.ticket, ticketFileText(ticket));
  const recordFile = join(dir, "record.json");
  const invocation = engine.invocation({
    ticket,
    runId: `run_${runs}`,
    prompt,
    workspace,
    files,
    apiKey: options.apiKey,
    resumeSessionId: options.resumeSessionId,
    resumeWorkspace: options.resumeWorkspace,
  });
  const parser = engine.parser();
  const events: EngineEvent[] = [];
  const started = performance.now();
  const child = execa(invocation.command, invocation.args, {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? "", HOME: dir, FAKE_CLI_RECORD: recordFile, ...invocation.env, ...options.env },
    extendEnv: false,
    reject: false,
    buffer: false,
    ...(invocation.stdin === undefined ? { stdin: "ignore" as const } : { input: invocation.stdin }),
  });
  const read = (stream: "stdout" | "stderr") => {
    const source = child[stream];
    if (source === null) return Promise.resolve();
    const lines = createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => events.push(...parser.line(stream, line)));
    return once(lines, "close");
  };
  const [ended] = await Promise.all([child, read("stdout"), read("stderr")]);
  const result = parser.finish({
    exitCode: ended.exitCode,
    signal: ended.signal,
    resultFile: existsSync(files.result) ? readFileSync(files.result, "utf8") : undefined,
    durationMs: Math.round(performance.now() - started),
  });
  const record = existsSync(recordFile) ? (JSON.parse(readFileSync(recordFile, "utf8")) as FakeRecord) : undefined;
  return { invocation, events, result, exitCode: ended.exitCode, record, files, workspace };
}

/** The progress texts of a run, in order. */
export function progressOf(events: EngineEvent[]): string[] {
  return events.flatMap((e) => (e.kind === "progress" ? [`${e.detail}: ${e.text}`] : []));
}
