import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { shellBlocks } from "./doc-blocks.js";
import { REPO } from "./publish-packages.mjs";
import { startUserSession, type UserSession } from "./user-session.js";

// docs/publishing.md's `npm run registry:local` block, run as written
// (test/registry/docs-commands.test.ts runs the document's other blocks), in
// the shell of a person with an npm config and cache of their own (a user
// session that publishes nothing: registry:local publishes to its own registry).
const read = (path: string) => readFile(join(REPO, path), "utf8");

let root: string;
let session: UserSession;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "registry-local-"));
  session = await startUserSession(root, []);
}, 120_000);
afterAll(async () => {
  await session?.close();
  await rm(root, { recursive: true, force: true });
}, 120_000);

async function waitUntil(what: string, ms: number, done: () => boolean) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("docs/publishing.md: npm run registry:local serves the clone's packages until Ctrl-C", async () => {
  const block = shellBlocks(await read("docs/publishing.md")).find((b) => b.includes("npm run registry:local"))!;
  // Its own port, and no second build: the suite builds first (npm test).
  const child = spawn("bash", ["-e", "-c", block], {
    cwd: REPO,
    env: { ...session.env, ERRAND_REGISTRY_PORT: "0", ERRAND_REGISTRY_BUILD: "0" },
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("exit", (code, signal) => resolve([code, signal])),
  );
  const deadline = Date.now() + 180_000;
  while (!output.includes("stop it with Ctrl-C") && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  expect(output).toContain("create-channel@");
  const npmrc = /export NPM_CONFIG_USERCONFIG=(\S+)/.exec(output)?.[1];
  expect(npmrc, output).toBeDefined();
  const view = await session.sh("npm view @errand/cli version", root, {
    env: { ...session.env, NPM_CONFIG_USERCONFIG: npmrc! },
  });
  expect(view.stdout).toBe(JSON.parse(await read("cli/package.json")).version);
  // Ctrl-C at a terminal: SIGINT to the foreground process group. npm's
  // script shell (sh) dies of it and npm passes that on, so the command ends
  // as an interrupted one (130 in the person's shell); what must hold is
  // that the registry stops and its npm config goes with it.
  process.kill(-child.pid!, "SIGINT");
  const [code, signal] = await exited;
  expect(signal === "SIGINT" || code === 130 || code === 0, `exit ${code}, signal ${signal}`).toBe(true);
  await waitUntil("registry:local to remove its npm config", 20_000, () => !existsSync(npmrc!));
  const port = new URL(/^\s*registry=(\S+)$/m.exec(output)![1]!).port;
  await expect(fetch(`http://127.0.0.1:${port}/-/ping`)).rejects.toThrow();
}, 240_000);
