import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { tempDir } from "../../../../test/support/temp-dir.js";

/** The host, port and repository path that git actually asked for. */
export interface GitContact {
  readonly via: "http" | "ssh";
  readonly host: string;
  /** As git sent it; undefined when git left it out (the scheme's default). */
  readonly port: string | undefined;
  /** Without the leading slash, `/info/refs` and the query. */
  readonly path: string;
}

/** What one `git ls-remote` did. */
export interface LsRemote {
  /** Undefined when git contacted no server at all. */
  readonly contact: GitContact | undefined;
  /** The refs it listed (empty when it failed). */
  readonly refs: string;
}

/** Code hosts served on 127.0.0.1, and `git ls-remote` pointed at them. */
export interface GitHosts {
  lsRemote(url: string): Promise<LsRemote>;
  close(): Promise<void>;
}

const BACKEND = "/usr/lib/git-core/git-http-backend";

function git(args: string[], cwd?: string): void {
  execFileSync("git", args, {
    cwd,
    stdio: "ignore",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: cwd ?? process.cwd() },
  });
}

/** A bare repository at `root/path` with one branch named after where it lives, so ls-remote shows which one it reached. */
function makeRepository(root: string, path: string, branch: string): void {
  const work = join(root, ".work");
  mkdirSync(work, { recursive: true });
  git(["init", "-q", "-b", branch], work);
  git(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", branch], work);
  git(["clone", "-q", "--bare", work, join(root, path)], root);
  rmSync(work, { recursive: true, force: true });
}

/** Runs `git http-backend` (CGI) for one request and writes its answer. */
function serveCgi(
  projectRoot: string,
  pathInfo: string,
  query: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const child = spawn(BACKEND, [], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: pathInfo,
      QUERY_STRING: query,
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
    },
  });
  // The backend may exit before it reads the body (an unknown repository); that is its answer, not an error.
  child.stdin.on("error", () => {});
  req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  child.on("close", () => {
    const out = Buffer.concat(chunks);
    const end = out.indexOf("\r\n\r\n");
    if (end === -1) return void res.writeHead(502).end("git http-backend gave no CGI headers\n");
    const head = out.subarray(0, end).toString("latin1");
    let status = 200;
    for (const line of head.split("\r\n")) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "status") status = Number.parseInt(value, 10);
      else if (name !== "") res.setHeader(name, value);
    }
    res.writeHead(status).end(out.subarray(end + 4));
  });
}

/** `http://host[:port]/path?query` as curl sends it to a proxy, split without normalising anything. */
function splitAbsoluteForm(target: string): { host: string; port: string | undefined; path: string; query: string } {
  const rest = target.replace(/^http:\/\//i, "");
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const pathAndQuery = slash === -1 ? "/" : rest.slice(slash);
  const portMatch = /:(\d*)$/.exec(authority);
  const host = portMatch ? authority.slice(0, portMatch.index) : authority;
  const q = pathAndQuery.indexOf("?");
  return {
    host,
    port: portMatch?.[1],
    path: q === -1 ? pathAndQuery : pathAndQuery.slice(0, q),
    query: q === -1 ? "" : pathAndQuery.slice(q + 1),
  };
}

/** A server decodes the path before it looks the repository up. */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const toContact = (via: GitContact["via"], host: string, port: string | undefined, path: string): GitContact => ({
  via,
  host,
  port,
  path: path.replace(/\/(info\/refs|git-upload-pack)$/, "").replace(/^\//, ""),
});

/** The host and repository path in the arguments git gave its ssh command: `[-p port] [user@]host "git-upload-pack '/path'"`. */
function sshContact(args: string[]): GitContact | undefined {
  const command = args.at(-1);
  const target = args.at(-2);
  if (command === undefined || target === undefined) return undefined;
  const p = args.indexOf("-p");
  const quoted = /^git-upload-pack '(.*)'$/s.exec(command)?.[1] ?? command;
  return toContact(
    "ssh",
    target.replace(/^.*@/, ""),
    p === -1 ? undefined : args[p + 1],
    quoted.replace(/'\\''/g, "'"),
  );
}

/**
 * Serves real repositories through `git http-backend` behind an HTTP proxy on
 * 127.0.0.1, one project root per host name (`github.com`, `evil.example`),
 * and runs `git ls-remote` with that proxy. Git parses each URL itself and
 * asks the proxy for the host and path it resolved; the proxy records them.
 * `https://` is rewritten to `http://` by `url.insteadOf` (only that prefix
 * changes, so git parses the rest as written). For ssh, git runs a script
 * that records its arguments and fails.
 */
export async function startGitHosts(repositories: Record<string, string[]>): Promise<GitHosts> {
  const dir = tempDir("errand-git-hosts-");
  for (const [host, paths] of Object.entries(repositories)) {
    for (const path of paths)
      makeRepository(join(dir, "hosts", host), path, `${host}/${path}`.replace(/[^a-z0-9]+/gi, "-"));
  }
  const sshScript = join(dir, "ssh");
  writeFileSync(sshScript, '#!/bin/sh\nprintf "%s\\0" "$@" > "$ERRAND_SSH_LOG"\nexit 128\n');
  chmodSync(sshScript, 0o755);
  let contacts: GitContact[] = [];
  const server: Server = createServer((req, res) => {
    const target = splitAbsoluteForm(req.url ?? "");
    contacts.push(toContact("http", target.host, target.port, target.path));
    const root = join(dir, "hosts", target.host.toLowerCase());
    if (!existsSync(root)) return void res.writeHead(502).end("no such host\n");
    serveCgi(root, safeDecode(target.path), target.query, req, res);
  });
  server.on("connect", (req: IncomingMessage, socket) => {
    const [host = "", port] = (req.url ?? "").split(":");
    contacts.push(toContact("http", host, port, "(tunnel)"));
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_SSH_COMMAND: sshScript,
  };
  const config = ["-c", `http.proxy=${proxy}`, "-c", "url.http://.insteadOf=https://", "-c", "ssh.variant=ssh"];

  return {
    async lsRemote(url) {
      contacts = [];
      const sshLog = join(dir, "ssh.log");
      rmSync(sshLog, { force: true });
      const refs = await new Promise<string>((resolve) => {
        const child = spawn("git", [...config, "ls-remote", "--", url], {
          cwd: dir,
          env: { ...env, ERRAND_SSH_LOG: sshLog },
          stdio: ["ignore", "pipe", "ignore"],
        });
        let out = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
        });
        child.on("close", (code) => resolve(code === 0 ? out : ""));
      });
      const ssh = existsSync(sshLog) ? sshContact(readFileSync(sshLog, "utf8").split("\0").slice(0, -1)) : undefined;
      return { contact: contacts[0] ?? ssh, refs };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
