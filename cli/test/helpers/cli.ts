import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";

export const cliBin = (name: "channel" | "create-channel") => fileURLToPath(new URL(`../../bin/${name}.js`, import.meta.url));

/** Runs a built CLI bin as a user would; never rejects. */
export function runCli(name: "channel" | "create-channel", args: string[], options: Options = {}) {
  return execa(process.execPath, [cliBin(name), ...args], { reject: false, env: { FORCE_COLOR: "0" }, ...options });
}
