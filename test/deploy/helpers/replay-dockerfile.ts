import { execFile } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { promisify } from "node:util";
import { copyFromContext, readDockerIgnore } from "./docker-context.js";
import { copyParts, envAssignments, parseDockerfile, type Stage } from "./dockerfile.js";

const run = promisify(execFile);

/** The outcome of {@link replayDockerfile}: each stage's file system and environment on this machine. */
export interface ReplayResult {
  /** Stage name → its state after its last instruction. */
  stages: Map<string, StageState>;
  /** Every command run and every step skipped, in order. */
  logFile: string;
}

/** One stage's file system (a folder standing for `/`), working folder and `ENV`. */
export interface StageState {
  fsRoot: string;
  /** The working folder on this machine (the stage's last WORKDIR, mapped). */
  cwd: string;
  env: Record<string, string>;
  /** The image's `ENTRYPOINT` and `CMD`, when set. */
  entrypoint?: string[];
  cmd?: string[];
}

/** Options of {@link replayDockerfile}. */
export interface ReplayOptions {
  /** The build context (the repository root). */
  context: string;
  dockerfile: string;
  /** Scratch folder; each stage gets `<work>/<stage>` as its `/`. */
  work: string;
  /** Decides which RUN steps are left out, with the reason written to the log; the rest run with `sh -c`. */
  skipRun(stage: Stage, command: string): string | undefined;
  /** Environment every RUN starts from (Docker starts from the base image's; this machine stands in for it). */
  baseEnv: Record<string, string>;
}

/**
 * Runs a Dockerfile's steps on this machine, stage by stage, without Docker:
 * COPY from the context (honouring .dockerignore) and from earlier stages,
 * WORKDIR, ENV, and RUN through `sh -c`. Container paths map into a folder
 * per stage; a RUN that names an absolute path could not be mapped and fails
 * the replay, so keep build commands relative to WORKDIR.
 */
export async function replayDockerfile(options: ReplayOptions): Promise<ReplayResult> {
  const file = parseDockerfile(readFileSync(options.dockerfile, "utf8"));
  const ignored = readDockerIgnore(options.context);
  const logFile = join(options.work, "replay.log");
  const log = (text: string) => appendFileSync(logFile, `${text}\n`);
  const stages = new Map<string, StageState>();
  for (const stage of file.stages) {
    const fsRoot = join(options.work, `stage-${stage.name}`);
    mkdirSync(fsRoot, { recursive: true });
    const state: StageState = { fsRoot, cwd: fsRoot, env: {} };
    stages.set(stage.name, state);
    const inFs = (path: string) => (isAbsolute(path) ? join(fsRoot, path) : join(state.cwd, path));
    const mapValue = (value: string) =>
      value
        .split(":")
        .map((part) => (isAbsolute(part) && !part.startsWith(fsRoot) && isMappedRoot(part) ? join(fsRoot, part) : part))
        .join(":");
    const mappedRoots = new Set<string>();
    const isMappedRoot = (path: string) => mappedRoots.has(path.split("/")[1] ?? "");
    const remember = (containerPath: string) => {
      if (isAbsolute(containerPath)) mappedRoots.add(containerPath.split("/")[1]!);
    };
    for (const step of stage.instructions) {
      log(`[${stage.name}] line ${step.line}: ${step.keyword} ${step.args}`);
      if (step.keyword === "WORKDIR") {
        remember(step.args);
        state.cwd = inFs(step.args);
        mkdirSync(state.cwd, { recursive: true });
      } else if (step.keyword === "ENV") {
        for (const [name, value] of Object.entries(envAssignments(step.args, { ...options.baseEnv, ...state.env })))
          state.env[name] = mapValue(value);
      } else if (step.keyword === "COPY") {
        const { flags, sources, dest } = copyParts(step.args);
        remember(dest);
        const target = inFs(dest) + (dest.endsWith("/") ? "/" : "");
        if (flags.from === undefined) {
          copyFromContext(options.context, sources, target, ignored);
        } else {
          const from = stages.get(flags.from);
          if (from === undefined)
            throw new Error(`line ${step.line}: COPY --from=${flags.from} names no earlier stage`);
          for (const source of sources) {
            mkdirSync(target, { recursive: true });
            cpSync(join(from.fsRoot, source), target, { recursive: true, verbatimSymlinks: true });
          }
        }
      } else if (step.keyword === "RUN") {
        const reason = options.skipRun(stage, step.args);
        if (reason !== undefined) {
          log(`  skipped: ${reason}`);
          continue;
        }
        const absolute = / \/(?!dev\/null)[A-Za-z]/.exec(` ${step.args}`);
        if (absolute !== null)
          throw new Error(
            `line ${step.line}: RUN names an absolute path (${step.args.slice(absolute.index, absolute.index + 30)}...); keep build commands relative to WORKDIR`,
          );
        const env = {
          ...options.baseEnv,
          ...state.env,
          PATH: [state.env.PATH, options.baseEnv.PATH].filter(Boolean).join(":"),
        };
        const result = await run("sh", ["-c", step.args], { cwd: state.cwd, env, maxBuffer: 256 * 1024 * 1024 }).catch(
          (error: { stdout?: string; stderr?: string; message: string }) => {
            log(`${error.stdout ?? ""}${error.stderr ?? ""}`);
            // tsc reports on stdout, npm and compilers on stderr: show the end of both.
            throw new Error(
              `line ${step.line}: RUN ${step.args} failed\n${(error.stdout ?? "").slice(-3000)}\n${(error.stderr ?? "").slice(-3000)}`,
            );
          },
        );
        log(`${result.stdout}${result.stderr}`);
      } else if (step.keyword === "ENTRYPOINT" || step.keyword === "CMD") {
        const value = JSON.parse(step.args) as string[];
        if (step.keyword === "ENTRYPOINT") state.entrypoint = value;
        else state.cmd = value;
      } else {
        log("  (nothing to do outside Docker)");
      }
    }
  }
  return { stages, logFile };
}
