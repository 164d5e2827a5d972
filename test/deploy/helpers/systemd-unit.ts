import { execFileSync, spawnSync } from "node:child_process";

/** A unit file's sections, each key with its values in order (a key may repeat). */
export type Unit = Map<string, Map<string, string[]>>;

/** Parses a systemd unit file: `[Section]` headers, `Key=value` lines, `#`/`;` comments, `\` continuations. */
export function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section: Map<string, string[]> | undefined;
  for (const line of text.replace(/\\\n/g, " ").split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(trimmed);
    if (header) {
      section = new Map();
      unit.set(header[1]!, section);
      continue;
    }
    const equals = trimmed.indexOf("=");
    if (section === undefined || equals < 1) throw new Error(`not a unit file line: ${line}`);
    const key = trimmed.slice(0, equals).trim();
    section.set(key, [...(section.get(key) ?? []), trimmed.slice(equals + 1).trim()]);
  }
  return unit;
}

/** The words of an ExecStart= value (no quoting or `$` expansion: the shipped unit uses neither), prefixes (`-`, `@`, …) refused. */
export function commandLine(value: string): string[] {
  if (/^[-@:+!]/.test(value) || /["'$]/.test(value))
    throw new Error(`ExecStart uses a prefix, quotes or variables the tests do not read: ${value}`);
  return value.split(/\s+/).filter((word) => word !== "");
}

/** `systemd-analyze verify <file>` when systemd-analyze is installed. */
export function systemdAnalyze(): ((file: string) => { status: number | null; stderr: string }) | undefined {
  try {
    execFileSync("systemd-analyze", ["--version"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  return (file) => {
    const result = spawnSync("systemd-analyze", ["verify", file], { encoding: "utf8" });
    return { status: result.status, stderr: result.stderr };
  };
}
