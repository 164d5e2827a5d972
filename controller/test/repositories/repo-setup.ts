import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach } from "vitest";
import type { ControllerConfig } from "../../src/config/controller-config.js";
import { createHarness, type Harness, type InProcess, startInProcess } from "../controller/harness.js";
import { type GitServer, startGitServer } from "../helpers/git-server.js";
import { createFakeApp, type FakeApp } from "../sources/codehost-a/fake-app-tokens.js";
import { type FakeCodehostA, startFakeCodehostA } from "../sources/codehost-a/fake-codehost-a.js";
import { createFakePulls, type FakePulls } from "../sources/codehost-a/fake-pulls.js";

export const TOKEN = "ghp_repoTokenForTests0123456789abcdef";
export const REPO = "acme/app.git";
const SCRIPT = resolve(import.meta.dirname, "../fixtures/repositories/commit.sh");

/** The code host: git over HTTP and the REST fake with pull requests (and an App when asked). */
export interface Host {
  git: GitServer;
  api: FakeCodehostA;
  pulls: FakePulls;
  app: FakeApp | undefined;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** Starts the host; with `app`, only the App's unexpired installation tokens are accepted. */
export async function startHost(options: { app?: boolean } = {}): Promise<Host> {
  const app = options.app ? createFakeApp() : undefined;
  const accepts = (token: string) => (app === undefined ? token === TOKEN : app.valid(token));
  const git = await startGitServer(accepts);
  git.createRepository(REPO, { "README.md": "# app\n" });
  const api = await startFakeCodehostA({ owner: "acme", name: "app", token: TOKEN, accepts });
  const pulls = createFakePulls({
    owner: "acme",
    repo: "app",
    accepts,
    branchExists: (branch) => git.log(REPO, branch) !== undefined,
  });
  api.routes.push(pulls.route);
  if (app !== undefined) api.routes.push(app.route);
  open.push(git, api);
  return { git, api, pulls, app };
}

/** A harness whose engine is the committing fixture (`env`: MODE, SLEEP), with `repositories` as given. */
export function repoHarness(repositories: string, env: Record<string, string> = {}): Harness {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return createHarness({ engine: ["/usr/bin/env", ...vars, SCRIPT], extra: repositories });
}

/** `repositories` with the token secret (or the App) pointing at `host`. */
export function repositoriesYaml(host: Host, extra = ""): string {
  const credential =
    host.app === undefined
      ? "    token_secret: repo-token"
      : `    app:\n      app_id: ${host.app.appId}\n      private_key_secret: app-key\n      installation_id: ${host.app.installationId}`;
  return `repositories:
  codehost_a:
    api_base_url: ${host.api.url}
${credential}
${extra}  checkout:
    git_user_name: Errand Bot
    git_user_email: bot@example.invalid
`;
}

const started: InProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

/** The controller in-process with the credential in its environment. */
export async function startWith(
  h: Harness,
  host: Host,
  token = TOKEN,
  edit?: (config: ControllerConfig) => void,
): Promise<InProcess> {
  const env: Record<string, string> =
    host.app === undefined ? { ERRAND_SECRET_REPO_TOKEN: token } : { ERRAND_SECRET_APP_KEY: host.app.privateKey };
  const c = await startInProcess(h, edit, env);
  started.push(c);
  return c;
}

/** The bytes of every file under `dir` (logs, the store and its WAL), for a search of a secret. */
export function filesText(dir: string): string {
  let text = "";
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      text += readFileSync(join(entry.parentPath, entry.name), "latin1");
    } catch {
      // Removed meanwhile (a run's folder).
    }
  }
  return text;
}

/** Reads every process's command line until stopped: what `ps` shows while the run goes on. */
export function watchCommandLines(): { stop(): string[] } {
  const seen = new Set<string>();
  let going = true;
  const sample = () => {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        seen.add(readFileSync(`/proc/${pid}/cmdline`, "latin1").replaceAll("\0", " "));
      } catch {
        // Gone meanwhile.
      }
    }
    if (going) setTimeout(sample, 5);
  };
  sample();
  return {
    stop() {
      going = false;
      return [...seen];
    },
  };
}
