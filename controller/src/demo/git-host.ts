import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** The demo's git server: bare repositories served by `git http-backend` on 127.0.0.1, behind Basic auth. */
export interface GitHost {
  /** `http://127.0.0.1:PORT`: a repository `owner/name` is at `${url}/owner/name`. */
  readonly url: string;
  /** `git log --format=%h %s` of a branch, newest first (empty when it does not exist). */
  log(path: string, branch: string): string[];
  close(): Promise<void>;
}

/** Git without the user's or the system's configuration: the demo touches nothing of theirs. */
const gitEnv = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
});

function git(args: string[], cwd: string): string {
  return execFileSync("git", args, { cwd, env: gitEnv(cwd), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * The path of `git http-backend`, or why the demo cannot serve git: git is
 * not installed, or its http-backend is missing (Debian ships it in `git`).
 */
export function findHttpBackend(): { path: string } | { missing: string } {
  let execPath: string;
  try {
    execPath = git(["--exec-path"], process.cwd()).trim();
  } catch {
    return { missing: "git is not installed (or not on PATH)" };
  }
  const path = join(execPath, "git-http-backend");
  return existsSync(path) ? { path } : { missing: `git http-backend is missing (looked for ${path})` };
}

/**
 * Creates the bare repository `owner/name` under `root` with one commit on
 * `main` holding `files`, and serves `root` with `backend`. Every request
 * must carry Basic auth whose password is `token` (the user name is
 * ignored, as code host A's is for tokens); others get 401 with
 * `WWW-Authenticate`, so git asks the controller's askpass for it.
 */
export async function startGitHost(options: {
  root: string;
  backend: string;
  token: string;
  repository: string;
  files: Record<string, string>;
}): Promise<GitHost> {
  const { root, backend, token } = options;
  createRepository(root, options.repository, options.files);
  const server = createServer((req, res) => {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const password = basic === undefined ? undefined : Buffer.from(basic, "base64").toString().split(":").slice(1);
    if (password?.join(":") !== token) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="errand demo"' }).end("unauthorized\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    serveCgi(backend, root, url, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log(path, branch) {
      try {
        return git(["log", "--format=%h %s", branch, "--"], join(root, `${path}.git`))
          .trim()
          .split("\n");
      } catch {
        return [];
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function createRepository(root: string, path: string, files: Record<string, string>): void {
  const work = join(root, ".work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  git(["init", "-q", "-b", "main"], work);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text);
  git(["add", "-A"], work);
  git(["-c", "user.name=Demo Owner", "-c", "user.email=owner@example.invalid", "commit", "-q", "-m", "initial"], work);
  git(["clone", "-q", "--bare", work, join(root, `${path}.git`)], root);
  // Pushes over HTTP are refused unless the repository allows them.
  git(["config", "http.receivepack", "true"], join(root, `${path}.git`));
  rmSync(work, { recursive: true, force: true });
}

/** Runs `git http-backend` (CGI) for one request and writes its answer. */
function serveCgi(backend: string, root: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const child = spawn(backend, [], {
    env: {
      ...gitEnv(root),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: url.pathname,
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_USER: "x-access-token",
      GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
    },
  });
  child.stdin.on("error", () => {});
  child.on("error", () => res.headersSent || res.writeHead(502).end("git http-backend did not start\n"));
  req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  child.on("close", () => {
    const out = Buffer.concat(chunks);
    const end = out.indexOf("\r\n\r\n");
    if (end === -1) return void (res.headersSent || res.writeHead(502).end("git http-backend gave no CGI headers\n"));
    let status = 200;
    for (const line of out.subarray(0, end).toString("latin1").split("\r\n")) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "status") status = Number.parseInt(value, 10);
      else if (name !== "") res.setHeader(name, value);
    }
    res.writeHead(status).end(out.subarray(end + 4));
  });
}
