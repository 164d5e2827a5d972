import { type Command, InvalidArgumentError } from "commander";
import { RUN_STATES, type RunState } from "../../runs/task-run.js";

/** The options every `runs` command takes. */
export interface Common {
  config?: string;
  json?: boolean;
}

/** Adds the options every `runs` command takes: which configuration, and JSON for scripts. */
export const withCommonOptions = (c: Command): Command =>
  c
    .option(
      "-c, --config <file>",
      "configuration file (default: ./errand.yaml when it exists, else the embedded defaults)",
    )
    .option("--json", "print JSON for scripts");

/** Writes a command's answer to stdout. */
export const print = (text: string) => process.stdout.write(text);
/** Writes a command's answer as indented JSON. */
export const json = (value: unknown) => print(`${JSON.stringify(value, null, 2)}\n`);

/** `--state`: one or more run states, comma-separated or repeated, matched case-insensitively. */
export function parseStates(value: string, previous: RunState[] = []): RunState[] {
  const out = [...previous];
  for (const part of value.split(",")) {
    const match = RUN_STATES.find((s) => s.toLowerCase() === part.trim().toLowerCase());
    if (match === undefined)
      throw new InvalidArgumentError(`unknown state "${part}"; use one of ${RUN_STATES.join(", ")}`);
    out.push(match);
  }
  return out;
}

/** Refuses an empty or blank run id before the store is opened: it names no run. */
export function parseRunId(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError(
      "give the id of a run, such as run_01m87kkxw7v6ettjqzhskgch50 (errand runs lists them)",
    );
  return value;
}

/** A count from 1 to 100000 (`--limit`, `--log-bytes`). */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100_000)
    throw new InvalidArgumentError("give a whole number from 1 to 100000");
  return n;
}
