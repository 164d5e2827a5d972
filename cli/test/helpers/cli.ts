import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";

export const cliBin = (name: "channel" | "create-channel") =>
  fileURLToPath(new URL(`../../bin/${name}.js`, import.meta.url));

/** How a CLI run ended: its exit code and what it printed. */
export interface CliRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs a built CLI bin as a user would; never rejects. */
export async function runCli(
  name: "channel" | "create-channel",
  args: string[],
  options: Options = {},
): Promise<CliRun> {
  const r = await execa(process.execPath, [cliBin(name), ...args], {
    reject: false,
    env: { FORCE_COLOR: "0" },
    ...options,
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? "") };
}
