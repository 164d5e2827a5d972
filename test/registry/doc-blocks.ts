import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The shell code blocks of a Markdown document (```sh, ```bash, ```shell), in order, as written. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
}

/** What the docs test does with one block: run it (how), or not (why). */
export interface BlockPlan {
  /** A piece of the block that names it; it must match exactly one block of its document. */
  match: string;
  /** Why the block is not run, when it is not. */
  skip?: string;
}

/**
 * Pairs every block of a document with its plan: each block must match
 * exactly one plan and each plan one block, so that a new or changed block
 * fails the test until someone decides how it is run (or why it is not).
 */
export function pairBlocks<P extends BlockPlan>(
  doc: string,
  blocks: string[],
  plans: P[],
): Array<{ block: string; plan: P }> {
  const problems: string[] = [];
  const pairs = blocks.map((block) => {
    const matching = plans.filter((p) => block.includes(p.match));
    if (matching.length !== 1) problems.push(`${doc}: the block\n${block}\nmatches ${matching.length} plans`);
    return { block, plan: matching[0]! };
  });
  for (const plan of plans) {
    if (!blocks.some((b) => b.includes(plan.match)))
      problems.push(`${doc}: no block matches the plan ${JSON.stringify(plan.match)}`);
  }
  if (problems.length > 0) throw new Error(problems.join("\n\n"));
  return pairs;
}

/** How a block ran. */
export interface BlockRun {
  code: number | null;
  output: string;
}

/**
 * Runs a block as a script of `bash -e` in `cwd`: each line as typed, the
 * first failing one ending it. With `onTerminal`, it runs on a
 * pseudo-terminal (util-linux `script`) and presses Enter at every question
 * ("? " on screen: npx's "Ok to proceed?", each prompt of create-channel),
 * taking every default, as a person at a terminal would.
 */
export async function runBlock(
  block: string,
  cwd: string,
  env: Record<string, string>,
  onTerminal = false,
  timeoutMs = 600_000,
): Promise<BlockRun> {
  const dir = await mkdtemp(join(tmpdir(), "doc-block-"));
  const file = join(dir, "block.sh");
  await writeFile(file, block);
  const [command, args] = onTerminal
    ? ["script", ["-qfec", `bash -e -o pipefail ${file}`, "/dev/null"]]
    : ["bash", ["-e", "-o", "pipefail", file]];
  // Its own process group, so that a block that hangs is stopped with everything it started.
  const child = spawn(command, args as string[], { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  const timer = setTimeout(() => {
    output += `\n[the block did not end within ${timeoutMs / 1000} s; stopped]`;
    process.kill(-child.pid!, "SIGKILL");
  }, timeoutMs);
  let output = "";
  let sinceAnswer = "";
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    sinceAnswer += chunk.toString();
    if (onTerminal && /\? /.test(sinceAnswer)) {
      sinceAnswer = "";
      child.stdin.write("\r");
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  if (!onTerminal) child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  await rm(dir, { recursive: true, force: true });
  return { code, output };
}

// The conformance checks are timed (5 s a call, a declared rate): the blocks
// and steps that run them take turns, so that one document's checks never
// share the machine with another's.
let timedTurn: Promise<unknown> = Promise.resolve();

/** Runs `work` once every earlier work given to inTurn has ended. */
export function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = timedTurn.then(work);
  timedTurn = run.catch(() => undefined);
  return run;
}

/** Whether a command line runs the timed conformance checks (and so takes its turn, {@link inTurn}). */
export const runsConformance = (commands: string) => /channel test|npm run conformance/.test(commands);
