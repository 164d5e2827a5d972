import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { afterEach } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";

// The linked bin, as a user gets it after `npm install` (build first: npm run build -w controller).
const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
const dir = tempDir("errand-cli-");
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** A running `errand` process. */
export interface CliRun {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Resolves with the port once the server logged that it listens; rejects if the process exits first. */
  ready: Promise<number>;
  /** Everything on stdout so far (empty with `readStdout: false`). */
  stdout(): string;
  /** Everything on stderr so far. */
  stderr(): string;
  /** Resolves once stderr matches `pattern`, or rejects after `ms`. */
  waitForStderr(pattern: RegExp, ms?: number): Promise<void>;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** false leaves `child.stdout` unread, for tests that pause or close the reader. */
  readStdout?: boolean;
}

/** Spawns `errand <args>` with stdout and stderr piped to the test; killed after each test. */
export function runCli(args: string[], options: RunOptions = {}): CliRun {
  const child = spawn(BIN, args, { env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  const stderrChanged: Array<() => void> = [];
  if (options.readStdout !== false) child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => {
    err += d;
    for (const w of stderrChanged.splice(0)) w();
  });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const waitForStderr = (pattern: RegExp, ms = 5000) =>
    new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`stderr never matched ${pattern}: ${err}`)), ms).unref();
      const check = () => {
        if (!pattern.test(err)) return void stderrChanged.push(check);
        clearTimeout(timer);
        ok();
      };
      check();
    });
  const ready = Promise.race([
    waitForStderr(/"@message":"webhook server listening"/, 15_000).then(() =>
      Number(/"@message":"webhook server listening".*?"port":(\d+)/.exec(err)?.[1]),
    ),
    exited.then(() => Promise.reject(new Error(`exited early: ${err}`))),
  ]);
  // Runs that are meant to fail never become ready; only awaited readiness may reject a test.
  ready.catch(() => {});
  return { child, ready, stdout: () => out, stderr: () => err, waitForStderr, exited };
}

/** Writes a configuration file and returns its path. */
export function writeConfig(text: string): string {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Reads a stream to its end, resuming it if it was left paused. */
export function readAll(stream: Readable): Promise<string> {
  return new Promise((ok, fail) => {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => (text += d));
    stream.once("end", () => ok(text));
    stream.once("error", fail);
    stream.resume();
  });
}
