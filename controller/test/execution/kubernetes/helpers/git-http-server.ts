import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** Debian's git serves smart HTTP through this CGI program. */
const HTTP_BACKEND = "/usr/lib/git-core/git-http-backend";

/** A git server on 127.0.0.1: `git http-backend` behind Basic auth whose password must be `token`. */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Bare repositories live here, as `<owner>/<name>.git`. */
  root: string;
  /** Authorization headers seen, for assertions on what reached the server. */
  authorizations: string[];
  close(): Promise<void>;
}

/** git run with no user or system configuration, in `cwd`. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv(cwd), encoding: "utf8" }).trim();
}

/** An environment where git reads no configuration of the machine's user. */
export function gitEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, GIT_CONFIG_NOSYSTEM: "1", LANG: "C" };
}

/** Makes `<root>/<owner>/<name>.git` with one commit on `main` (its default branch); returns the commit. */
export function seedRepository(root: string, slug: string): string {
  const bare = join(root, `${slug}.git`);
  mkdirSync(bare, { recursive: true });
  git(bare, "init", "--quiet", "--bare", "--initial-branch=main");
  git(bare, "config", "http.receivepack", "true");
  const work = join(root, ".seed", slug);
  mkdirSync(work, { recursive: true });
  git(work, "init", "--quiet", "--initial-branch=main");
  writeFileSync(join(work, "README.md"), "# web\n");
  git(work, "add", "README.md");
  git(work, "-c", "user.name=Seed", "-c", "user.email=seed@example.invalid", "commit", "--quiet", "-m", "first");
  git(work, "push", "--quiet", bare, "main");
  return git(work, "rev-parse", "HEAD");
}

/** Starts the server; every request without the token as its Basic password gets 401. */
export async function startGitHttpServer(root: string, token: string): Promise<GitHttpServer> {
  const authorizations: string[] = [];
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? "";
    authorizations.push(auth);
    const password = auth.startsWith("Basic ")
      ? Buffer.from(auth.slice(6), "base64").toString("utf8").split(":").slice(1).join(":")
      : undefined;
    if (password !== token) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="git"' });
      res.end("unauthorized\n");
      return;
    }
    serveCgi(root, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs git http-backend for one request (CGI: headers then body on its stdout). */
function serveCgi(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://git");
  const child = spawn(HTTP_BACKEND, [], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: root,
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_USER: "errand",
      REMOTE_ADDR: "127.0.0.1",
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
      ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
    },
    stdio: ["pipe", "pipe", "ignore"],
  });
  req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  child.on("close", () => {
    const out = Buffer.concat(chunks);
    const end = out.indexOf("\r\n\r\n");
    const split = end === -1 ? out.indexOf("\n\n") : end;
    const head = out.subarray(0, split).toString("utf8");
    const body = out.subarray(split + (end === -1 ? 2 : 4));
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon === -1) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "status") status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.end(body);
  });
}
