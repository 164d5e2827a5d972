import { execFile, spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeClosure } from "../support/workspaces.mjs";
import { replayDockerfile, type StageState } from "./helpers/replay-dockerfile.js";

// No Docker daemon runs here, so the image's build stage is replayed on this
// machine: the same COPY, ENV and RUN steps (npm ci with better-sqlite3
// compiled from source, the TypeScript build, npm prune, the runtime tree),
// then `errand` is started from the runtime stage's tree as the ENTRYPOINT
// would be. It takes 5 to 7 minutes on 2 cores, so it runs only with
// ERRAND_DEPLOY_TESTS=1.
const root = fileURLToPath(new URL("../..", import.meta.url));
const enabled = process.env.ERRAND_DEPLOY_TESTS === "1";
const run = promisify(execFile);

function dangling(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isSymbolicLink() && !existsSync(join(e.parentPath, e.name)))
    .map((e) => join(e.parentPath, e.name));
}

describe.skipIf(!enabled)(
  "deploy/docker/Dockerfile build steps, replayed outside Docker (ERRAND_DEPLOY_TESTS=1)",
  () => {
    let work: string;
    let runtime: StageState;
    let build: StageState;
    const errand = (args: string[]) =>
      run(runtime.entrypoint![0]!, [...runtime.entrypoint!.slice(1), ...args], {
        cwd: runtime.cwd,
        // Only what the image would have: its ENV over a minimal environment.
        env: { HOME: work, ...runtime.env, PATH: runtime.env.PATH! },
      });

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), "errand-docker-"));
      const result = await replayDockerfile({
        context: root,
        dockerfile: join(root, "deploy/docker/Dockerfile"),
        work,
        baseEnv: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: process.env.HOME ?? work },
        skipRun: (stage, command) => {
          // The build dependencies come from Debian's packages in the image; here they must be on the machine already.
          if (command.includes("apt-get"))
            return "installs the build tools (python3, make, g++), which this machine has";
          if (stage.name !== "build") return "system set-up of the runtime image (a user, folders), which needs root";
          return undefined;
        },
      });
      build = result.stages.get("build")!;
      runtime = result.stages.get("runtime")!;
    }, 20 * 60_000);

    // Hundreds of megabytes of node_modules take a while to remove.
    afterAll(() => {
      if (work !== undefined) rmSync(work, { recursive: true, force: true });
    }, 5 * 60_000);

    it("compiled better-sqlite3's addon from source (no prebuilt download)", () => {
      const release = join(build.cwd, "node_modules/better-sqlite3/build/Release");
      expect(existsSync(join(release, "better_sqlite3.node"))).toBe(true);
      // Object files exist only when node-gyp compiled it here.
      expect(existsSync(join(release, "obj.target"))).toBe(true);
    }, 60_000);

    it("`errand --version` from the runtime tree prints the controller's version", async () => {
      const version = (JSON.parse(readFileSync(join(root, "controller/package.json"), "utf8")) as { version: string })
        .version;
      expect(runtime.entrypoint).toEqual(["errand"]);
      const { stdout } = await errand(["--version"]);
      expect(stdout.trim()).toBe(version);
    }, 60_000);

    it("starts from the code cache the build recorded (the runtime stage runs the build stage's node)", async () => {
      const { stdout, stderr } = await run(runtime.entrypoint![0]!, [...runtime.entrypoint!.slice(1), "--version"], {
        cwd: runtime.cwd,
        env: { HOME: work, ...runtime.env, PATH: runtime.env.PATH!, ERRAND_CODE_CACHE: "report" },
      });
      expect(stdout.trim()).not.toBe("");
      expect(stderr).toContain('"state":"accepted"');
    }, 60_000);

    it("runs the controller from the runtime tree on a SQLite store: the native addon loads", async () => {
      const config = join(work, "errand.yaml");
      writeFileSync(
        config,
        `webhook:\n  host: 127.0.0.1\n  port: 0\n  generic:\n    auth_mode: hmac\n    secret: { secret: generic-signing }\nengines:\n  default: noop\n  noop:\n    kind: command\n    command: [${JSON.stringify(process.execPath)}, -e, "0"]\nops:\n  host: 127.0.0.1\n  port: 0\nstore:\n  path: ${join(work, "state/errand.db")}\nexecution:\n  local:\n    workspace_dir: ${join(work, "workspaces")}\n    log_dir: ${join(work, "logs")}\n`,
      );
      // `errand run` creates the store; `errand runs` then reads it (it refuses a store no controller made).
      const controller = spawn(runtime.entrypoint![0]!, [...runtime.entrypoint!.slice(1), "run", "--config", config], {
        cwd: runtime.cwd,
        env: {
          HOME: work,
          ...runtime.env,
          PATH: runtime.env.PATH!,
          ERRAND_SECRET_GENERIC_SIGNING: "a-signing-secret-of-the-test",
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      const exited = new Promise<number | null>((resolve) => controller.once("exit", (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        controller.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk;
          if (stderr.includes('"controller started"')) resolve();
        });
        controller.once("exit", () => reject(new Error(`errand run exited before it started: ${stderr}`)));
      });
      controller.kill("SIGTERM");
      expect(await exited).toBe(0);
      const { stdout } = await errand(["runs", "--json", "--config", config]);
      expect(JSON.parse(stdout)).toEqual([]);
      expect(statSync(join(work, "state/errand.db")).size).toBeGreaterThan(0);
    }, 60_000);

    it("`errand config check` passes on the base's errand.yaml from the runtime tree", async () => {
      const { stderr } = await errand([
        "config",
        "check",
        "--config",
        join(root, "deploy/kustomize/base/errand.yaml"),
      ]).then(
        (r) => r,
        (error: { stderr: string }) => ({ stderr: error.stderr }),
      );
      // Without the secret set it fails on that alone: every module of the check loaded.
      expect(stderr).toContain('names the secret "generic-signing", which was not found');
    }, 60_000);

    it("ships no development dependencies, no sources and no dangling links", () => {
      const app = runtime.cwd;
      for (const dev of ["typescript", "vitest", "kubernetes-models", "fast-check", "autocannon", "@bufbuild/buf"])
        expect(existsSync(join(app, "node_modules", dev)), dev).toBe(false);
      for (const pkg of runtimeClosure("controller")) {
        expect(existsSync(join(app, pkg, "dist")), pkg).toBe(true);
        expect(existsSync(join(app, pkg, "src")), pkg).toBe(false);
      }
      expect(existsSync(join(app, "cli"))).toBe(false);
      expect(dangling(join(app, "node_modules"))).toEqual([]);
      expect(lstatSync(join(app, "node_modules/.bin/errand")).isSymbolicLink()).toBe(true);
      expect(existsSync(join(app, "controller/demo/agent.mjs"))).toBe(true);
    }, 60_000);
  },
);
