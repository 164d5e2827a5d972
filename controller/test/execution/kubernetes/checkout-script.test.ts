import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { splitGitLine } from "../../../src/execution/kubernetes/checkout-status.js";
import { wrapperCommand } from "../../../src/execution/kubernetes/pod-wrapper.js";
import { onCleanup, tempDir } from "../helpers/local-setup.js";
import { REPO_TOKEN, repositories, TICKET_BRANCH } from "./helpers/checkout-setup.js";
import { type GitHttpServer, git, gitEnv, seedRepository, startGitHttpServer } from "./helpers/git-http-server.js";
import { renderJob } from "./helpers/render-job.js";

/** What the pod's two containers share: the workspace, HOME, the credential file. */
interface Pod {
  server: GitHttpServer;
  workspace: string;
  home: string;
  credential: string;
  env: NodeJS.ProcessEnv;
}

/** A git server with acme/web, and the pod's folders; the credential file holds `token`. */
async function pod(token = REPO_TOKEN, repoUrl?: string): Promise<Pod> {
  const dir = tempDir();
  const root = join(dir, "repos");
  seedRepository(root, "acme/web");
  const server = await startGitHttpServer(root, REPO_TOKEN);
  onCleanup(() => server.close());
  const workspace = join(dir, "workspace");
  const home = join(dir, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  mkdirSync(join(dir, "secret"));
  const credential = join(dir, "secret", "token");
  writeFileSync(credential, token);
  chmodSync(credential, 0o400);
  // The init container's environment as the Job has it, with this machine's paths.
  const init = renderJob({ repositories: repositories() }).job.spec?.template.spec?.initContainers?.[0];
  const fromJob = Object.fromEntries((init?.env ?? []).map((v) => [v.name, v.value ?? ""]));
  const env = {
    ...fromJob,
    ...gitEnv(home),
    ERRAND_WORKSPACE: workspace,
    ERRAND_GIT_URL: repoUrl ?? `${server.url}/acme/web.git`,
    ERRAND_GIT_CREDENTIAL_FILE: credential,
  };
  return { server, workspace, home, credential, env };
}

/** The POSIX shells an image may have as /bin/sh. */
const SHELLS = ["/usr/bin/dash", "/usr/bin/bash", "/bin/busybox"].filter((s) => existsSync(s));
let shell = "/bin/sh";

/** Runs `command` as a container would, with {@link shell} as /bin/sh, and watches every process's command line for the token meanwhile. */
async function run(command: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const [, ...rest] = command;
  const args = shell.endsWith("busybox") ? ["sh", ...rest] : rest;
  const child = spawn(shell, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  let leaked = false;
  const watch = setInterval(() => (leaked ||= tokenInCommandLines()), 2);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearInterval(watch);
  return { code, err, leaked };
}

function tokenInCommandLines(): boolean {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(REPO_TOKEN)) return true;
    } catch {
      // The process ended meanwhile.
    }
  }
  return false;
}

/** The init container's script: clone, branch, identity. Returns the termination message. */
async function checkout(p: Pod) {
  const init = renderJob({ repositories: repositories() }).job.spec?.template.spec?.initContainers?.[0];
  const message = join(p.home, "..", "checkout-termination-log");
  const command = [...(init?.command ?? [])];
  command[command.length - 1] = message;
  const result = await run(command, p.env, p.workspace);
  return { ...result, message: existsSync(message) ? readFileSync(message, "utf8") : undefined };
}

/** The engine container: the wrapper with the push around `agent` (a shell script). */
async function engine(p: Pod, agent: string) {
  const files = {
    stdin: undefined,
    message: join(p.home, "..", "termination-log"),
    result: join(p.home, "..", "r.json"),
  };
  const env = { ...p.env, ERRAND_GIT_BRANCH: TICKET_BRANCH, ERRAND_RESULT_FILE: files.result };
  const result = await run(wrapperCommand(files, "/bin/sh", ["-c", agent], true), env, p.workspace);
  const message = readFileSync(files.message, "utf8");
  return { ...result, message, checkout: splitGitLine(message).checkout };
}

const COMMIT = (file: string) =>
  `echo change > ${file} && git add ${file} && git commit --quiet -m "agent: ${file}" && echo '{"success":true}' > "$ERRAND_RESULT_FILE"`;

describe.each(SHELLS)("the checkout and push scripts under %s, against git http-backend", (sh) => {
  beforeEach(() => {
    shell = sh;
  });

  it("clone a shallow default branch onto the run's branch with the configured identity, push the agent's commit", async () => {
    const p = await pod();
    const cloned = await checkout(p);
    expect(cloned.code, cloned.err).toBe(0);
    expect(git(p.workspace, "rev-parse", "--abbrev-ref", "HEAD")).toBe(TICKET_BRANCH);
    expect(git(p.workspace, "rev-parse", "--is-shallow-repository")).toBe("true");
    expect(git(p.workspace, "remote", "get-url", "origin")).toBe(`${p.server.url}/acme/web.git`);
    const ran = await engine(p, `${COMMIT("fix.txt")}`);
    expect(ran.code, ran.err).toBe(0);
    const head = git(p.workspace, "rev-parse", "HEAD");
    expect(ran.checkout).toEqual({ kind: "pushed", branch: TICKET_BRANCH, commit: head });
    expect(ran.message).toBe(`errand-git pushed ${TICKET_BRANCH} ${head}\nerrand-result v1\n{"success":true}\n`);
    const bare = join(p.server.root, "acme/web.git");
    expect(git(bare, "rev-parse", `refs/heads/${TICKET_BRANCH}`)).toBe(head);
    expect(git(bare, "log", "-1", "--format=%an <%ae>", TICKET_BRANCH)).toBe("Errand <errand@localhost>");
    expect(cloned.leaked || ran.leaked).toBe(false);
    expect(readFileSync(join(p.workspace, ".git", "config"), "utf8")).not.toContain(REPO_TOKEN);
    expect(p.server.authorizations.some((a) => a.startsWith("Basic "))).toBe(true);
  });

  it("a follow-up checks out the branch the last run pushed, and pushes on top of it", async () => {
    const p = await pod();
    await checkout(p);
    const first = await engine(p, COMMIT("one.txt"));
    const again = await pod();
    // The second run's pod clones from the same server as the first.
    const second = { ...again, server: p.server, env: { ...again.env, ERRAND_GIT_URL: p.env.ERRAND_GIT_URL } };
    expect((await checkout(second)).code).toBe(0);
    expect(git(second.workspace, "rev-parse", "HEAD")).toBe(first.checkout?.kind === "pushed" && first.checkout.commit);
    const ran = await engine(second, COMMIT("two.txt"));
    expect(ran.checkout?.kind).toBe("pushed");
    const bare = join(p.server.root, "acme/web.git");
    expect(git(bare, "log", "--format=%s", TICKET_BRANCH).split("\n")).toEqual([
      "agent: two.txt",
      "agent: one.txt",
      "first",
    ]);
  });

  it("a follow-up's checkout fails, naming the branch, when its pull request's branch is gone; else continues it", async () => {
    const p = await pod();
    const followUp = { ...p, env: { ...p.env, ERRAND_GIT_EXISTING: "1" } };
    const gone = await checkout(followUp);
    expect(gone.code).toBe(1);
    expect(gone.message).toBe(
      `the branch ${TICKET_BRANCH} is not in ${p.env.ERRAND_GIT_URL} any more: the pull request this follow-up continues lost its branch\n`,
    );
    const first = await pod();
    const shared = { ...first, server: p.server, env: { ...first.env, ERRAND_GIT_URL: p.env.ERRAND_GIT_URL } };
    await checkout(shared);
    const pushed = await engine(shared, COMMIT("one.txt"));
    const again = await pod();
    const next = { ...again, env: { ...again.env, ERRAND_GIT_URL: p.env.ERRAND_GIT_URL, ERRAND_GIT_EXISTING: "1" } };
    expect((await checkout(next)).code).toBe(0);
    expect(git(next.workspace, "rev-parse", "HEAD")).toBe(pushed.checkout?.kind === "pushed" && pushed.checkout.commit);
  });

  it("push nothing when the agent made no commit, or failed", async () => {
    const p = await pod();
    await checkout(p);
    const idle = await engine(p, `echo '{"success":true}' > "$ERRAND_RESULT_FILE"`);
    expect(idle.checkout).toEqual({ kind: "no-changes", branch: TICKET_BRANCH });
    const failed = await engine(p, `${COMMIT("broken.txt")}; exit 3`);
    expect(failed.code).toBe(3);
    expect(failed.checkout).toEqual({ kind: "not-pushed", branch: TICKET_BRANCH });
    const bare = join(p.server.root, "acme/web.git");
    expect(git(bare, "branch", "--list", TICKET_BRANCH)).toBe("");
  });

  it("a wrong token fails the clone with one line naming the cause, and no token anywhere", async () => {
    const p = await pod("ghs_wrongTOKEN000000000000000000");
    const cloned = await checkout(p);
    expect(cloned.code).toBe(1);
    expect(cloned.message).toBe(
      `the clone of ${p.server.url}/acme/web.git failed: Authentication failed for '${p.server.url}/acme/web.git/'\n`,
    );
    expect(cloned.message).not.toContain("ghs_wrong");
  });

  it("an image without git fails the checkout saying so", async () => {
    const p = await pod();
    const bin = join(p.home, "..", "bin");
    mkdirSync(bin);
    for (const tool of [
      "sh",
      "dash",
      "bash",
      "busybox",
      "sed",
      "tail",
      "cut",
      "tr",
      "mkdir",
      "chmod",
      "cat",
      "printf",
    ]) {
      const found = ["/usr/bin", "/bin"].map((d) => join(d, tool)).find((f) => existsSync(f));
      if (found !== undefined) symlinkSync(found, join(bin, tool));
    }
    p.env.PATH = bin;
    const cloned = await checkout(p);
    expect(cloned.code).toBe(1);
    expect(cloned.message).toMatch(/^the clone of \S+ failed: .*git: (command )?not found\n$/);
  });

  it("a missing repository fails the clone naming it", async () => {
    const p = await pod();
    p.env.ERRAND_GIT_URL = `${p.server.url}/acme/gone.git`;
    const cloned = await checkout(p);
    expect(cloned.code).toBe(1);
    expect(cloned.message?.split("\n")).toHaveLength(2);
    expect(cloned.message).toMatch(/^the clone of http:\/\/127\.0\.0\.1:\d+\/acme\/gone\.git failed: .*not found/);
  });
});
