/** One instruction of a Dockerfile: `COPY a b` → `{ keyword: "COPY", args: "a b", line: 12 }`. */
export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined with one space. */
  args: string;
  /** 1-based line where the instruction starts. */
  line: number;
}

/** A build stage: its `FROM` and the instructions up to the next one. */
export interface Stage {
  /** The `AS` name, or the stage's index when it has none. */
  name: string;
  /** The image after `FROM`, with `${ARG}` references as written. */
  from: string;
  instructions: Instruction[];
}

/** A parsed Dockerfile. */
export interface Dockerfile {
  /** Instructions before the first FROM (ARG only, for a valid file). */
  preamble: Instruction[];
  stages: Stage[];
}

/**
 * Parses the subset of Dockerfile syntax that a reviewer reads: comments,
 * `\` continuations and one instruction per logical line. Heredocs and
 * parser directives other than `# syntax=` are not supported and are reported.
 */
export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trimEnd();
    // Comment lines and empty lines, also inside a continued instruction, are dropped, as Docker does.
    if (/^\s*#/.test(line) || line.trim() === "") return;
    const continued = line.endsWith("\\");
    const part = (continued ? line.slice(0, -1) : line).trim();
    pending ??= { parts: [], line: index + 1 };
    if (part !== "") pending.parts.push(part);
    if (continued) return;
    const joined = pending.parts.join(" ");
    const match = /^([A-Za-z]+)\s*(.*)$/.exec(joined);
    if (match === null) throw new Error(`line ${pending.line}: not an instruction: ${joined}`);
    if (/^<</.test(match[2]!) || /\s<<-?[A-Z]/.test(match[2]!))
      throw new Error(`line ${pending.line}: heredocs are not supported by this parser`);
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!, line: pending.line });
    pending = undefined;
  });
  if (pending !== undefined) throw new Error(`line ${pending.line}: the file ends inside a continued instruction`);

  const preamble: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (match === null) throw new Error(`line ${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ name: match[2] ?? String(stages.length), from: match[1]!, instructions: [] });
    } else if (stages.length === 0) {
      preamble.push(instruction);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { preamble, stages };
}

/** `COPY [--from=x] [--chown=y] src... dest` split into its flags, sources and destination. */
export function copyParts(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const words = args.startsWith("[") ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith("--")) {
    const [name, value = ""] = words.shift()!.slice(2).split("=");
    flags[name!] = value;
  }
  if (words.length < 2) throw new Error(`COPY ${args}: needs a source and a destination`);
  return { flags, sources: words.slice(0, -1), dest: words.at(-1)! };
}

/** `ENV A=1 B=2` (or the old `ENV A 1`) as a record; `$VAR`/`${VAR}` in values are expanded from `env`. */
export function envAssignments(args: string, env: Record<string, string | undefined>): Record<string, string> {
  const expand = (value: string) =>
    value.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => env[name] ?? "");
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [name, ...rest] = args.split(/\s+/);
    return { [name!]: expand(rest.join(" ")) };
  }
  const out: Record<string, string> = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    const raw = match[2]!;
    out[match[1]!] = expand(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw);
  }
  return out;
}
