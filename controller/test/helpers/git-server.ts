import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { tempDir } from "../../../test/support/temp-dir.js";

/** One request git made, as the server saw it. */
export interface GitRequest {
  method: string;
  /** The path after the repository (`/info/refs`, `/git-upload-pack`, `/git-receive-pack`). */
  path: string;
  /** The service of an `info/refs` request (`git-upload-pack`: a clone or fetch; `git-receive-pack`: a push). */
  service: string | undefined;
  /** 401 when the credential was missing or wrong. */
  status: number;
  /** The Basic auth header as sent (tests check it never reached the server in the URL). */
  authorization: string | undefined;
}

/** Real repositories served by `git http-backend` on 127.0.0.1, behind Basic auth. */
export interface GitServer {
  /** `http://127.0.0.1:PORT`: a repository is at `${url}/owner/name.git`. */
  readonly url: string;
  readonly requests: GitRequest[];
  /** True: pushes are refused with 403, as for a token that may only read. */
  readOnly: boolean;
  /** A bare repository `owner/name.git` with one commit on `main` holding `files`. */
  createRepository(path: string, files: Record<string, string>): void;
  /** A branch at `main`'s commit, as an agent that pushed a branch of its own leaves it. */
  createBranch(path: string, branch: string): void;
  /** `git log --format=%s` of a branch, newest first; undefined when the branch does not exist. */
  log(path: string, branch: string): string[] | undefined;
  /** A file's content on a branch. */
  show(path: string, branch: string, file: string): string;
  close(): Promise<void>;
}

const BACKEND = "/usr/lib/git-core/git-http-backend";
const GIT_ENV = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

function git(args: string[], cwd: string): string {
  return execFileSync("git", args, { cwd, env: { ...GIT_ENV, HOME: cwd }, encoding: "utf8" });
}

/**
 * Starts the server. Every request must carry Basic auth whose password
 * `accepts` (the user name is ignored, as code host A's is for tokens);
 * others get 401 with `WWW-Authenticate`, so git asks its askpass.
 */
export async function startGitServer(accepts: (password: string) => boolean): Promise<GitServer> {
  const root = tempDir("errand-git-server-");
  const requests: GitRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // As the real host does, `/owner/name` (the html_url) serves the repository `owner/name.git` too.
    url.pathname = url.pathname.replace(
      /^(\/[^/]+\/[^/.]+)(\/(?:info\/refs|git-upload-pack|git-receive-pack))$/,
      "$1.git$2",
    );
    const match = /^(\/.+?\.git)(\/.*)$/.exec(url.pathname);
    const authorization = req.headers.authorization;
    const basic = /^Basic (.+)$/.exec(authorization ?? "")?.[1];
    const password =
      basic === undefined ? undefined : Buffer.from(basic, "base64").toString().split(":").slice(1).join(":");
    const seen = {
      method: req.method ?? "GET",
      path: match?.[2] ?? url.pathname,
      service: url.searchParams.get("service") ?? undefined,
      authorization,
    };
    if (password === undefined || !accepts(password)) {
      requests.push({ ...seen, status: 401 });
      res.writeHead(401, { "www-authenticate": 'Basic realm="errand test"' }).end("unauthorized\n");
      return;
    }
    const pushing =
      url.searchParams.get("service") === "git-receive-pack" || url.pathname.endsWith("/git-receive-pack");
    if (pushing && self.readOnly) {
      requests.push({ ...seen, status: 403 });
      res.writeHead(403).end("push refused: read-only token\n");
      return;
    }
    requests.push({ ...seen, status: 200 });
    serveCgi(root, url.pathname, url.search.slice(1), req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const self: GitServer = {
    url,
    requests,
    readOnly: false,
    createRepository(path, files) {
      const work = join(root, ".work");
      mkdirSync(work, { recursive: true });
      git(["init", "-q", "-b", "main"], work);
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(work, name)), { recursive: true });
        writeFileSync(join(work, name), text);
      }
      git(["add", "-A"], work);
      git(["-c", "user.name=Owner", "-c", "user.email=owner@example.invalid", "commit", "-q", "-m", "initial"], work);
      git(["clone", "-q", "--bare", work, join(root, path)], root);
      // Pushes over HTTP are refused unless the repository allows them.
      git(["config", "http.receivepack", "true"], join(root, path));
      rmSync(work, { recursive: true, force: true });
    },
    createBranch: (path, branch) => void git(["branch", branch, "main"], join(root, path)),
    log(path, branch) {
      try {
        return git(["log", "--format=%s", branch, "--"], join(root, path)).trim().split("\n");
      } catch {
        return undefined;
      }
    },
    show: (path, branch, file) => git(["show", `${branch}:${file}`], join(root, path)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return self;
}

/** Runs `git http-backend` (CGI) for one request and writes its answer. */
function serveCgi(root: string, pathInfo: string, query: string, req: IncomingMessage, res: ServerResponse): void {
  const child = spawn(BACKEND, [], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      PATH_INFO: pathInfo,
      QUERY_STRING: query,
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_USER: "x-access-token",
      GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
    },
  });
  child.stdin.on("error", () => {});
  req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  child.on("close", () => {
    const out = Buffer.concat(chunks);
    const end = out.indexOf("\r\n\r\n");
    if (end === -1) return void res.writeHead(502).end("git http-backend gave no CGI headers\n");
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
