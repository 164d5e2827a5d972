import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InvalidArgumentError } from "commander";
import { MAX_START_TIMEOUT_MS } from "../conformance/config.js";

/** At most this many checks at once: each has its own plugin process and sink, and there are about 22 checks. */
export const MAX_CONCURRENCY = 32;

/** A commander argParser for a whole number from 1 to `max`. */
export function wholeNumber(max: number, unit = "") {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > max) {
      throw new InvalidArgumentError(`use a whole number from 1 to ${max}${unit}.`);
    }
    return n;
  };
}

export const parseStartTimeout = wholeNumber(MAX_START_TIMEOUT_MS, " (milliseconds)");
export const parseConcurrency = wholeNumber(MAX_CONCURRENCY);

/**
 * Why a JUnit report cannot be written to `file`, or undefined. Checked
 * before the run, which may take minutes, so a typo does not lose its report.
 */
export function junitPathProblem(file: string): string | undefined {
  const path = resolve(file);
  if (/[/\\]$/.test(file) || (existsSync(path) && statSync(path).isDirectory())) {
    return `--junit ${file} is a directory; give a file name such as ${file.replace(/[/\\]?$/, "/")}channel.xml`;
  }
  if (existsSync(path)) {
    try {
      accessSync(path, constants.W_OK);
      return undefined;
    } catch {
      return `--junit ${file} cannot be written (permission denied)`;
    }
  }
  // The folders that do not exist yet are made at the end; the nearest one that does must be a writable folder.
  let parent = dirname(path);
  while (!existsSync(parent)) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) return `--junit ${file}: ${parent} is a file, not a folder`;
  try {
    accessSync(parent, constants.W_OK);
  } catch {
    return `--junit ${file}: the folder ${parent} cannot be written (permission denied)`;
  }
  return undefined;
}
