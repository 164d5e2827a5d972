import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { tempDir } from "../../../../test/support/temp-dir.js";

const SRC = resolve(import.meta.dirname, "../../../src");
const ROOT_MODULES = resolve(import.meta.dirname, "../../../../node_modules");
const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^;]*?from\s+)?["'](\.{1,2}\/[^"']+)\.js["']/g;

let built: string | undefined;
const running = new Set<ChildRun>();

/**
 * The SQLite store's module as a separate Node process imports it: the
 * sources it reaches, transpiled (types erased, nothing bundled) into a
 * temporary folder that sees the workspace's node_modules. Built once per
 * test file and removed when it ends (its scripts are gone by then: see
 * {@link killScripts}); returns its file URL.
 */
export function storeModuleUrl(): string {
  if (built) return built;
  const out = tempDir("errand-store-child-");
  symlinkSync(ROOT_MODULES, join(out, "node_modules"), "dir");
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
  const pending = [join(SRC, "store/index.ts")];
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (done.has(file)) continue;
    done.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(RELATIVE_IMPORT)) pending.push(resolve(dirname(file), `${match[1]}.ts`));
    const { outputText } = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: true },
    });
    const target = join(out, relative(SRC, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  built = pathToFileURL(join(out, "store/index.js")).href;
  return built;
}

/** A Node process running a script that imports the store as `store`. */
export interface ChildRun {
  /** Lines the script wrote to stdout so far. */
  lines: string[];
  /** Resolves once `count` lines were written; rejects if the process exits first. */
  waitForLines(count: number): Promise<void>;
  /** Resolves with the exit code, or the signal's name. */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
  stderr(): string;
}

/** Starts `body` as an ES module in a fresh Node process with the store module imported as `store`. */
export function runStoreScript(body: string): ChildRun {
  const script = `const store = await import(${JSON.stringify(storeModuleUrl())});\n${body}`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let partial = "";
  let err = "";
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop() as string;
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | string>((ok) => child.on("exit", (code, signal) => ok(code ?? signal ?? -1)));
  const waitForLines = (count: number) =>
    new Promise<void>((ok, fail) => {
      const check = () => (lines.length >= count ? ok() : waiters.push(check));
      void exited.then((how) => fail(new Error(`script exited (${how}) after ${lines.length} lines: ${err}`)));
      check();
    });
  const run: ChildRun = { lines, waitForLines, exited, kill: (signal) => child.kill(signal), stderr: () => err };
  running.add(run);
  void exited.then(() => running.delete(run));
  return run;
}

/** Kills every script still running and waits until they have exited (after each test). */
export async function killScripts(): Promise<void> {
  const runs = [...running];
  for (const run of runs) run.kill("SIGKILL");
  await Promise.all(runs.map((run) => run.exited));
}
