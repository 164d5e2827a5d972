import { readFile } from "node:fs/promises";
import { isChannelError, type TaskResult, type Ticket } from "@errand/channel-sdk";
import { connectChannel, createLogger } from "@errand/channel-sdk/host";
import { fixtures } from "@errand/channel-sdk/testing";
import chalk from "chalk";
import { InvalidArgumentError } from "commander";

/** Longest call deadline: gRPC and Node timers cannot express more (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * commander argParser of `--timeout <ms>`: a number of milliseconds above 0,
 * so a typo is a usage error (exit 2) rather than a deadline the SDK refuses.
 */
export function parseTimeoutMs(value: string): number {
  const ms = Number(value);
  if (value.trim() === "" || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) {
    throw new InvalidArgumentError(`use a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS}, such as 5000.`);
  }
  return ms;
}

/** Options of `channel send`. */
export interface SendCommandOptions {
  ticket?: string;
  result?: string;
  message: string;
  engine: string;
  config?: string;
  secrets?: string;
  /** Call deadline in milliseconds: a number once parsed by {@link parseTimeoutMs}, or the raw text. */
  timeout: number | string;
  /** Time allowed for the plugin to start, in milliseconds (the SDK's default when absent). */
  startTimeout?: number;
}

async function readJson(file: string | undefined, what: string): Promise<Record<string, unknown> | undefined> {
  if (!file) return undefined;
  try {
    const value: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return value as Record<string, unknown>;
  } catch (error) {
    throw new Error(`--${what} ${file}: ${(error as Error).message}`);
  }
}

/** Fills the fields a hand-written ticket or result leaves out, as proto3 would. */
function asTicket(raw: Record<string, unknown> | undefined): Ticket {
  if (!raw) return fixtures.tickets.basic;
  return { ...fixtures.tickets.minimal, ...raw } as Ticket;
}

function asResult(raw: Record<string, unknown> | undefined): TaskResult {
  if (!raw) return fixtures.results.success;
  return { ...fixtures.results.minimalSuccess, ...raw } as TaskResult;
}

/** `channel send <start|complete|notify> -- <command>`; resolves to the exit code. */
export async function sendCommand(kind: string, command: string[], options: SendCommandOptions): Promise<number> {
  const fail = (message: string, code: number) => {
    process.stderr.write(`${chalk.red("channel send:")} ${message}\n`);
    return code;
  };
  if (!["start", "complete", "notify"].includes(kind))
    return fail(`unknown kind "${kind}": use start, complete or notify`, 2);
  if (command.length === 0)
    return fail('give the plugin command after "--", for example: channel send start -- node dist/bin.js', 2);
  let timeoutMs: number;
  try {
    timeoutMs = typeof options.timeout === "number" ? options.timeout : parseTimeoutMs(String(options.timeout));
  } catch (error) {
    return fail(`--timeout ${String(options.timeout)}: ${(error as Error).message}`, 2);
  }
  let ticket: Ticket;
  let result: TaskResult;
  let config: Record<string, unknown> | undefined;
  let secrets: Record<string, string> | undefined;
  try {
    ticket = asTicket(await readJson(options.ticket, "ticket"));
    result = asResult(await readJson(options.result, "result"));
    config = await readJson(options.config, "config");
    secrets = (await readJson(options.secrets, "secrets")) as Record<string, string> | undefined;
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  const [cmd, ...args] = command as [string, ...string[]];
  let channel;
  try {
    channel = await connectChannel({
      command: cmd,
      args,
      config,
      secrets,
      logger: createLogger({ level: "warn" }),
      ...(options.startTimeout === undefined ? {} : { startTimeoutMs: options.startTimeout }),
    });
  } catch (error) {
    return fail(isChannelError(error) ? error.describe() : (error as Error).message, 2);
  }
  const started = performance.now();
  try {
    const outcome =
      kind === "start"
        ? await channel.notifyStart(ticket, { engine: options.engine, timeoutMs })
        : kind === "complete"
          ? await channel.notifyComplete(ticket, result, { timeoutMs })
          : await channel.notify(options.message, ticket, { timeoutMs });
    const ms = Math.round(performance.now() - started);
    process.stdout.write(
      `${chalk.green("✓")} ${channel.name} ${channel.version}: ${kind} delivered in ${ms} ms${outcome.deliveryId ? ` (delivery id ${outcome.deliveryId})` : ""}\n`,
    );
    return 0;
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const text = isChannelError(error) ? `${error.code}: ${error.describe()}` : (error as Error).message;
    process.stdout.write(
      `${chalk.red("✗")} ${channel.name} ${channel.version}: ${kind} failed after ${ms} ms\n  ${text}\n`,
    );
    return 1;
  } finally {
    await channel.close();
  }
}
