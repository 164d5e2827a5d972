import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { BUNDLE_ID_MARKER, codeCacheFile, codeCacheMode } from "../src/cli/code-cache.js";

const CODE_CACHE = pathToFileURL(join(import.meta.dirname, "../dist/cli/code-cache.js")).href;

/** A bundle that prints what the launcher gave it, ending with the id marker as bundle-cli.mjs writes it. */
function writeBundle(id: string | undefined): string {
  const file = join(tempDir("errand-code-cache-test-"), "errand.cjs");
  const body = `const { join } = require("node:path");
function greet(name) { return "hello " + name; }
process.stdout.write(JSON.stringify({ greeting: greet("cache"), url: __importMetaUrl, file: __filename, dir: __dirname, join: typeof join, exportsIsThis: this === module.exports }) + "\\n");`;
  writeFileSync(
    file,
    id === undefined ? body : `${body}\n${BUNDLE_ID_MARKER}${id}\n//# sourceMappingURL=errand.cjs.map\n`,
  );
  return file;
}

/** Runs the bundle in a fresh node through runBundle; returns its stdout line and the state runBundle returned. */
function run(file: string, mode: string): { out: Record<string, unknown>; state: string } {
  const script = `import { runBundle } from ${JSON.stringify(CODE_CACHE)};
const state = runBundle(${JSON.stringify(file)}, ${JSON.stringify(mode)});
process.stdout.write(JSON.stringify({ state }) + "\\n");`;
  const lines = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })
    .trim()
    .split("\n");
  return {
    out: JSON.parse(lines[0]!) as Record<string, unknown>,
    state: (JSON.parse(lines[1]!) as { state: string }).state,
  };
}

describe("ERRAND_CODE_CACHE", () => {
  it("reads the four modes, unset as use, and names them when given anything else", () => {
    expect(codeCacheMode(undefined)).toBe("use");
    expect(codeCacheMode("")).toBe("use");
    for (const mode of ["use", "off", "write", "report"]) expect(codeCacheMode(mode)).toBe(mode);
    expect(() => codeCacheMode("on")).toThrow(
      'ERRAND_CODE_CACHE is "on"; use one of use, off, write, report (or leave it unset)',
    );
  });

  it("errand refuses an unknown mode with that message and exit code 2", () => {
    const bin = join(import.meta.dirname, "../bin/errand.cjs");
    const r = spawnSync(process.execPath, [bin, "--version"], {
      encoding: "utf8",
      env: { ...process.env, ERRAND_CODE_CACHE: "yes" },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('ERRAND_CODE_CACHE is "yes"; use one of use, off, write, report');
  });
});

describe("runBundle", () => {
  it("runs the bundle as a CommonJS module with import.meta.url, and without a cache compiles it from source", () => {
    const file = writeBundle("0a1b2c");
    const { out, state } = run(file, "use");
    expect(out).toEqual({
      greeting: "hello cache",
      url: pathToFileURL(file).href,
      file,
      dir: join(file, ".."),
      join: "function",
      exportsIsThis: true,
    });
    expect(state).toBe("missing");
  });

  it("writes the cache at exit in write mode, and the next start takes it", () => {
    const file = writeBundle("0a1b2c");
    expect(run(file, "write").state).toBe("missing");
    expect(existsSync(codeCacheFile(file, "0a1b2c"))).toBe(true);
    expect(run(file, "use")).toMatchObject({ state: "accepted", out: { greeting: "hello cache" } });
    expect(run(file, "off").state).toBe("off");
  });

  it("never takes the cache of another build: the cache belongs to the bundle's id", () => {
    const file = writeBundle("0a1b2c");
    run(file, "write");
    // The same length (V8's own check would pass), another id: a rebuilt bundle.
    writeFileSync(file, readFileSync(file, "utf8").replace("errand-bundle-id=0a1b2c", "errand-bundle-id=0a1b2d"));
    expect(run(file, "use").state).toBe("missing");
    expect(readdirSync(join(file, "..")).filter((f) => f.endsWith(".cache"))).toEqual(["errand.cjs.0a1b2c.cache"]);
  });

  it("reports a cache V8 refuses as rejected and still runs the bundle", () => {
    const file = writeBundle("0a1b2c");
    writeFileSync(codeCacheFile(file, "0a1b2c"), Buffer.alloc(4096, 7));
    expect(run(file, "use")).toMatchObject({ state: "rejected", out: { greeting: "hello cache" } });
  });

  it("warns on stderr and keeps the exit code when the cache cannot be written at exit", () => {
    const file = writeBundle("0a1b2c");
    // The bundle's folder is gone by the time the process exits.
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "function greet",
        'require("node:fs").rmSync(__dirname, { recursive: true });\nfunction greet',
      ),
    );
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { runBundle } from ${JSON.stringify(CODE_CACHE)}; runBundle(${JSON.stringify(file)}, "write");`,
      ],
      { encoding: "utf8" },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('"greeting":"hello cache"');
    expect(r.stderr).toContain('"@message":"could not write the code cache"');
  });

  it("errand says how to build it when the bundle is missing", () => {
    const root = tempDir("errand-unbuilt-");
    mkdirSync(join(root, "bin"));
    mkdirSync(join(root, "dist/bin"), { recursive: true });
    copyFileSync(join(import.meta.dirname, "../bin/errand.cjs"), join(root, "bin/errand.cjs"));
    const noLauncher = spawnSync(process.execPath, [join(root, "bin/errand.cjs"), "--version"], { encoding: "utf8" });
    expect(noLauncher.status).toBe(1);
    expect(noLauncher.stderr).toContain(
      "launch.cjs is missing: the controller is not built; run `npm run build -w @errand/controller`",
    );
    copyFileSync(join(import.meta.dirname, "../dist/bin/launch.cjs"), join(root, "dist/bin/launch.cjs"));
    const noBundle = spawnSync(process.execPath, [join(root, "bin/errand.cjs"), "--version"], { encoding: "utf8" });
    expect(noBundle.status).toBe(1);
    expect(noBundle.stderr).toContain("errand.cjs is missing: the controller is not built");
  });

  it("a bundle without an id runs without a cache and write mode writes none", () => {
    const file = writeBundle(undefined);
    expect(run(file, "write").state).toBe("missing");
    expect(readdirSync(join(file, "..")).filter((f) => f.endsWith(".cache"))).toEqual([]);
  });
});
