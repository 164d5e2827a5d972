import { readFileSync } from "node:fs";

/** This CLI's version, from its package.json. */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
