import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runtimeClosure, workspaceDirs } from "../support/workspaces.mjs";
import { readDockerIgnore } from "./helpers/docker-context.js";
import { copyParts, type Instruction, parseDockerfile } from "./helpers/dockerfile.js";

// No Dockerfile linter comes from the registries this project uses (hadolint
// is neither in Debian bookworm nor on npm), so the rules a reviewer and
// hadolint would apply are checked here; docker-build-steps.test.ts runs the
// build itself.
const root = fileURLToPath(new URL("../..", import.meta.url));
const text = readFileSync(join(root, "deploy/docker/Dockerfile"), "utf8");
const file = parseDockerfile(text);
const [build, runtime] = [file.stages.find((s) => s.name === "build")!, file.stages.at(-1)!];
const args = Object.fromEntries(
  file.preamble.filter((i) => i.keyword === "ARG").map((i) => i.args.split("=") as [string, string]),
);
const resolve = (image: string) =>
  image.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => args[name] ?? "");
const of = (instructions: Instruction[], keyword: string) => instructions.filter((i) => i.keyword === keyword);
const runs = (instructions: Instruction[]) => of(instructions, "RUN").map((i) => i.args);
const workspaces = workspaceDirs();

// A shell word with a `*` in it ("channels/*", or one in the middle of a path), expanded against the repository as sh would.
function expand(word: string): string[] {
  let paths = [""];
  for (const segment of word.replace(/\/$/, "").split("/")) {
    const literal = segment.replace(/[.+?^$(){}|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`^${literal.replaceAll("*", "[^/]*")}$`);
    paths = paths.flatMap((path) =>
      (segment.includes("*") ? readdirSync(join(root, path)).filter((name) => pattern.test(name)) : [segment]).map(
        (name) => join(path, name),
      ),
    );
  }
  return paths.filter((path) => existsSync(join(root, path)));
}

describe("deploy/docker/Dockerfile", () => {
  it("has a build stage and a runtime stage on one pinned slim Node 20 image", () => {
    expect(file.stages.map((s) => s.name)).toEqual(["build", "runtime"]);
    const images = new Set(file.stages.map((s) => resolve(s.from)));
    expect(images.size).toBe(1);
    const [image] = [...images];
    // A full version, never `latest` or a bare major that moves under the build.
    const match = /^node:(\d+)\.(\d+)\.(\d+)-bookworm-slim(@sha256:[0-9a-f]{64})?$/.exec(image!);
    expect(match, image).not.toBeNull();
    const [major, minor] = [Number(match![1]), Number(match![2])];
    expect(major).toBe(20);
    // The packages' engines field: >=20.19.
    expect(minor).toBeGreaterThanOrEqual(19);
  });

  it("uses COPY only (no ADD, so nothing is fetched from a URL or unpacked by surprise)", () => {
    expect(file.stages.flatMap((s) => of(s.instructions, "ADD"))).toEqual([]);
  });

  it("installs Debian packages in one layer, without recommends, and drops the lists", () => {
    for (const command of file.stages.flatMap((s) => runs(s.instructions)).filter((c) => c.includes("apt-get"))) {
      expect(command).toMatch(/^apt-get update && apt-get install -y --no-install-recommends /);
      expect(command).toMatch(/&& rm -rf \/var\/lib\/apt\/lists\/\*$/);
    }
    const install = runs(build.instructions).find((c) => c.includes("apt-get install"))!;
    for (const tool of ["python3", "make", "g++"]) expect(install.split(/\s+/)).toContain(tool);
    expect(runs(runtime.instructions).some((c) => c.includes("apt-get"))).toBe(false);
  });

  it("builds the native SQLite addon from source in the build stage, with npm ci then npm prune", () => {
    expect(of(build.instructions, "ENV").map((i) => i.args)).toContain("npm_config_build_from_source=true");
    const commands = runs(build.instructions);
    const ci = commands.findIndex((c) => /^npm ci\b/.test(c));
    const compile = commands.findIndex((c) => /\btsc -b\b/.test(c));
    const prune = commands.findIndex((c) => /^npm prune --omit=dev\b/.test(c));
    expect([ci, compile, prune].every((i) => i >= 0)).toBe(true);
    expect(ci < compile && compile < prune).toBe(true);
    expect(commands.some((c) => /\bnpm install\b/.test(c))).toBe(false);
  });

  it("copies every workspace's package.json before npm ci (npm ci refuses a partial workspace set)", () => {
    const beforeCi = build.instructions.slice(
      0,
      build.instructions.findIndex((i) => i.keyword === "RUN" && i.args.startsWith("npm ci")),
    );
    const copied = of(beforeCi, "COPY").flatMap((i) => copyParts(i.args).sources);
    expect(copied).toEqual(
      expect.arrayContaining(["package.json", "package-lock.json", ...workspaces.map((w) => `${w}/package.json`)]),
    );
  });

  // The packages the controller needs at run time come from the root's workspaces and the controller's dependencies
  // (test/support/workspaces.mjs); the build stage names them by folder or glob, so a new one must fall under those.
  it("copies, builds and ships every workspace package the controller needs at run time", () => {
    const needed = runtimeClosure("controller");
    expect(needed).toEqual(expect.arrayContaining(["controller", "sdk", "channels/chat-a", "channels/chat-kit"]));
    const afterCi = build.instructions.slice(
      build.instructions.findIndex((i) => i.keyword === "RUN" && i.args.startsWith("npm ci")),
    );
    const copied = of(afterCi, "COPY").flatMap((i) =>
      copyParts(i.args).sources.map((source) => source.replace(/\/$/, "")),
    );
    // The words of the build stage's RUN after `marker` up to `end`, globs expanded.
    const listed = (marker: RegExp, end: string) => {
      const command = runs(build.instructions).find((c) => marker.test(c)) ?? "";
      return (command.split(marker)[1]?.split(end)[0] ?? "").trim().split(/\s+/).filter(Boolean).flatMap(expand);
    };
    const built = listed(/\btsc -b\b/, "&&").map((path) => path.replace(/\/tsconfig\.json$/, ""));
    const shipped = listed(/\bfor pkg in\b/, ";").filter((dir) => existsSync(join(root, dir, "package.json")));
    const isCopied = (dir: string) => copied.some((source) => dir === source || dir.startsWith(`${source}/`));
    for (const dir of needed) {
      expect(isCopied(dir), `${dir} is not copied into the build stage`).toBe(true);
      expect(built, `${dir} is not compiled by the build stage's tsc -b`).toContain(dir);
      expect(shipped, `${dir} is not in the runtime tree (the build stage's "for pkg in" loop)`).toContain(dir);
    }
  });

  it("copies from the context only what exists and .dockerignore lets through, and keeps host builds out", () => {
    const ignored = readDockerIgnore(root);
    for (const step of of(build.instructions, "COPY")) {
      for (const source of copyParts(step.args).sources) {
        expect(existsSync(join(root, source)), source).toBe(true);
        expect(ignored(source.replace(/\/$/, "")), source).toBe(false);
      }
    }
    for (const path of [
      "node_modules",
      "controller/node_modules",
      "sdk/dist",
      "controller/dist/index.js",
      "controller/tsconfig.tsbuildinfo",
      ".git",
    ])
      expect(ignored(path), path).toBe(true);
  });

  it("runtime stage: copies the build stage's output only, builds nothing, runs as a numeric non-root user", () => {
    for (const step of of(runtime.instructions, "COPY")) expect(copyParts(step.args).flags.from).toBe("build");
    expect(runs(runtime.instructions).some((c) => /\b(npm|npx|node-gyp|tsc)\b/.test(c))).toBe(false);
    const users = of(runtime.instructions, "USER");
    expect(users).toHaveLength(1);
    const [uid, gid] = users[0]!.args.split(":");
    expect(uid).toMatch(/^\d+$/);
    expect(gid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThanOrEqual(10000);
    // The user must be the last word on it: nothing after USER runs as root.
    const after = runtime.instructions.slice(runtime.instructions.indexOf(users[0]!) + 1);
    expect(of(after, "RUN")).toEqual([]);
    expect(runs(runtime.instructions).join("\n")).toContain(`--uid ${uid}`);
  });

  it("starts `errand run` on /etc/errand/errand.yaml, exposes the webhook and ops ports, has no HEALTHCHECK", () => {
    expect(JSON.parse(of(runtime.instructions, "ENTRYPOINT").at(-1)!.args)).toEqual(["errand"]);
    expect(JSON.parse(of(runtime.instructions, "CMD").at(-1)!.args)).toEqual([
      "run",
      "--config",
      "/etc/errand/errand.yaml",
    ]);
    expect(of(runtime.instructions, "EXPOSE").map((i) => i.args)).toEqual(["8080 9090"]);
    expect(file.stages.flatMap((s) => of(s.instructions, "HEALTHCHECK"))).toEqual([]);
    expect(text).toMatch(/# No HEALTHCHECK: Kubernetes ignores it/);
  });
});

describe("the Dockerfile parser", () => {
  it("joins continued lines, drops comments inside them, and splits stages", () => {
    const parsed = parseDockerfile(
      "ARG A=1\nFROM x:1 AS one\nRUN a \\\n# note\n && b\nFROM one\nCOPY --from=one /a /b\n",
    );
    expect(parsed.preamble).toEqual([{ keyword: "ARG", args: "A=1", line: 1 }]);
    expect(parsed.stages[0]).toEqual({
      name: "one",
      from: "x:1",
      instructions: [{ keyword: "RUN", args: "a && b", line: 3 }],
    });
    expect(parsed.stages[1]!.name).toBe("1");
    expect(copyParts(parsed.stages[1]!.instructions[0]!.args)).toEqual({
      flags: { from: "one" },
      sources: ["/a"],
      dest: "/b",
    });
  });

  it("refuses a file that ends inside a continued instruction", () => {
    expect(() => parseDockerfile("FROM x:1\nRUN a \\\n")).toThrow(/ends inside a continued instruction/);
  });
});
