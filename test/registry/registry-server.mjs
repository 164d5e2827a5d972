// A small npm registry on node:http for the tests and for `npm run
// registry:local`: it takes `npm publish` (PUT /<name>) and serves `npm
// install` (GET /<name>, GET /<name>/-/<file>.tgz) for what was published to
// it. Errand's names (the @errand scope, the unscoped create-channel) come
// only from here; every other name is passed through to the upstream registry,
// so that one `registry=` line serves a whole install.
import { createServer } from "node:http";
import { createPackageStore, PublishError } from "./package-store.mjs";

/** The names that never go upstream: they are ours, published here or nowhere. */
export const OWN_NAMES = { scopes: ["@errand"], names: ["create-channel"] };

/** The token `npm publish` must send (npm refuses to publish without one configured). */
export const DEFAULT_TOKEN = "errand-local-registry";

const TARBALL = /^\/(@[^/]+\/[^/]+|[^/@][^/]*)\/-\/([^/]+\.tgz)$/;
const PACKUMENT = /^\/(@[^/]+\/[^/]+|[^/@][^/]*)$/;

/** @param {string} name */
const isOwn = (name) =>
  OWN_NAMES.names.includes(name) || OWN_NAMES.scopes.some((scope) => name.startsWith(`${scope}/`));

/** @param {import("node:http").ServerResponse} res @param {number} status @param {unknown} body */
function json(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** @param {import("node:http").IncomingMessage} req */
async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Passes a GET through to the upstream registry, as npm would have sent it. A
 * package document loses the optional dependencies the upstream cannot serve
 * (see {@link withoutMissingOptionals}).
 * @param {string} upstream @param {string} path @param {boolean} isPackument
 * @param {Map<string, Promise<boolean>>} served
 * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
 */
async function proxy(upstream, path, isPackument, served, req, res) {
  try {
    const answer = await fetch(`${upstream}${path}`, { headers: { accept: req.headers.accept ?? "application/json" } });
    let body = Buffer.from(await answer.arrayBuffer());
    if (isPackument && answer.ok) body = await withoutMissingOptionals(body, upstream, served);
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/octet-stream" });
    res.end(body);
  } catch (error) {
    json(res, 502, {
      error: `the upstream registry ${upstream} did not answer: ${/** @type {Error} */ (error).message}`,
    });
  }
}

/**
 * A package document without the optional dependencies its upstream has no
 * package for. A registry mirror may lack a package that a new release names
 * as optional (vite 8.4.0's napi-windows-process-start-time, first released
 * days before it): `npm install` then leaves it out of package-lock.json,
 * and `npm ci` refuses that lock as out of sync. Left out here, both see
 * the same tree. `served` remembers each name's answer for the registry's life.
 * @param {Buffer} body @param {string} upstream @param {Map<string, Promise<boolean>>} served
 * @returns {Promise<Buffer>}
 */
async function withoutMissingOptionals(body, upstream, served) {
  let doc;
  try {
    doc = JSON.parse(body.toString("utf8"));
  } catch {
    return body;
  }
  const versions = Object.values(doc?.versions ?? {});
  const names = new Set(versions.flatMap((v) => Object.keys(v?.optionalDependencies ?? {})));
  if (names.size === 0) return body;
  const missing = new Set();
  await Promise.all(
    [...names].map(async (name) => {
      if (!served.has(name)) {
        const path = `/${name.replace("/", "%2f")}`;
        served.set(
          name,
          fetch(`${upstream}${path}`, { method: "HEAD" }).then(
            (answer) => answer.status !== 404,
            () => true,
          ),
        );
      }
      if (!(await served.get(name))) missing.add(name);
    }),
  );
  if (missing.size === 0) return body;
  for (const version of versions)
    for (const name of missing) {
      delete version.optionalDependencies?.[name];
      delete version.dependencies?.[name];
    }
  return Buffer.from(JSON.stringify(doc));
}

/**
 * @typedef {object} RegistryOptions
 * @property {string} [host] default 127.0.0.1
 * @property {number} [port] default 0 (any free port)
 * @property {string} [token] the bearer token publishes need; default {@link DEFAULT_TOKEN}
 * @property {string | null} [upstream] where other names come from; default https://registry.npmjs.org, null for none
 * @property {(line: { method: string, path: string, status: number, upstream: boolean }) => void} [onRequest] sees every request
 */

/**
 * Starts the registry; resolves once it listens.
 * @param {RegistryOptions} [options]
 */
export async function startTestRegistry(options = {}) {
  const {
    host = "127.0.0.1",
    port = 0,
    token = DEFAULT_TOKEN,
    upstream = "https://registry.npmjs.org",
    onRequest,
  } = options;
  const store = createPackageStore();
  /** @type {Map<string, Promise<boolean>>} whether the upstream serves a name, by name */
  const served = new Map();
  let base = "";
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/");
    let viaUpstream = false;
    res.on("finish", () =>
      onRequest?.({ method: req.method ?? "", path, status: res.statusCode, upstream: viaUpstream }),
    );
    const tarball = TARBALL.exec(path);
    const packument = PACKUMENT.exec(path);
    const name = tarball?.[1] ?? packument?.[1];
    if (req.method === "GET" && path === "/-/ping") return json(res, 200, {});
    // No advisories are known here; npm's audit after an install asks this.
    if (req.method === "POST" && path.startsWith("/-/npm/v1/security/")) return json(res, 200, {});
    if (req.method === "PUT" && packument && name) {
      if (req.headers.authorization !== `Bearer ${token}`)
        return json(res, 401, {
          error: `publishing needs this registry's token: ${base.replace(/^https?:/, "")}/:_authToken=${token} in .npmrc`,
        });
      try {
        const version = store.publish(name, JSON.parse(await readBody(req)));
        return json(res, 201, { ok: true, id: name, version });
      } catch (error) {
        if (error instanceof PublishError) return json(res, error.status, { error: error.message });
        return json(res, 400, { error: `the body is not a publish: ${/** @type {Error} */ (error).message}` });
      }
    }
    if (req.method === "GET" && name) {
      if (store.has(name)) {
        if (packument) return json(res, 200, store.packument(name, base));
        const data = store.tarball(name, /** @type {string} */ (tarball?.[2]));
        if (data) {
          res.writeHead(200, { "content-type": "application/octet-stream", "content-length": data.length });
          return res.end(data);
        }
        return json(res, 404, { error: `${name} has no tarball ${tarball?.[2]} here` });
      }
      if (isOwn(name) || !upstream) return json(res, 404, { error: `${name} is not published to this registry` });
      viaUpstream = true;
      return proxy(upstream, /** @type {string} */ (req.url), Boolean(packument), served, req, res);
    }
    json(res, 405, { error: `${req.method} ${path} is not something this test registry does` });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  base = `http://${host}:${address.port}`;
  return {
    /** The registry's URL, with the trailing slash npm config uses. */
    url: `${base}/`,
    port: address.port,
    token,
    /** What has been published. */
    published: () => store.list(),
    /** Stops listening and drops open connections. */
    close: () =>
      /** @type {Promise<void>} */ (
        new Promise((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        })
      ),
  };
}
