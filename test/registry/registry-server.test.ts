import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeNpmrc } from "./npmrc.mjs";
import { startTestRegistry } from "./registry-server.mjs";

// The test registry against the real npm client: what npm publish sends is
// taken, what npm install asks for is served, Errand's names never leave it,
// and every other name comes from registry.npmjs.org through it.
type Registry = Awaited<ReturnType<typeof startTestRegistry>>;
type Logged = { method: string; path: string; status: number; upstream: boolean };

let root: string;
let registry: Registry;
let npmrc: string;
const requests: Logged[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "test-registry-"));
  registry = await startTestRegistry({ onRequest: (r: Logged) => requests.push(r) });
  npmrc = join(root, "npmrc");
  await writeNpmrc(npmrc, registry, ["update-notifier=false", "fund=false"]);
});
afterAll(async () => {
  await registry.close();
  await rm(root, { recursive: true, force: true });
});

const npm = (args: string[], cwd: string, userconfig = npmrc) =>
  execa("npm", args, {
    cwd,
    reject: false,
    env: { NPM_CONFIG_USERCONFIG: userconfig, npm_config_update_notifier: "false" },
  });

async function makePackage(name: string, version: string, files: Record<string, string> = {}) {
  const dir = await mkdtemp(join(root, "pkg-"));
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name, version, type: "module", main: "index.js", license: "MIT" }),
  );
  // A nonce makes every tarball new to npm's cache, so that installs fetch it from the registry.
  await writeFile(
    join(dir, "index.js"),
    `export const version = ${JSON.stringify(version)};\nexport const nonce = "${randomUUID()}";\n`,
  );
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

describe("the test registry", () => {
  it("takes npm publish of a scoped and an unscoped package, and npm installs them by name", async () => {
    for (const [name, version] of [
      ["@errand/registry-probe", "1.0.0"],
      ["@errand/registry-probe", "1.1.0"],
      ["create-channel", "9.9.9"],
    ] as const) {
      const published = await npm(["publish"], await makePackage(name, version));
      expect(published.exitCode, published.stderr).toBe(0);
      expect(published.stdout).toContain(`+ ${name}@${version}`);
    }
    const view = await npm(["view", "@errand/registry-probe", "--json"], root);
    expect(JSON.parse(view.stdout)).toMatchObject({
      name: "@errand/registry-probe",
      version: "1.1.0",
      versions: ["1.0.0", "1.1.0"],
      "dist-tags": { latest: "1.1.0" },
    });
    const app = join(root, "app");
    await mkdir(app);
    await npm(["init", "-y"], app);
    const install = await npm(["install", "--no-audit", "@errand/registry-probe@1.0.0", "create-channel"], app);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(await readFile(join(app, "node_modules/@errand/registry-probe/index.js"), "utf8")).toContain('"1.0.0"');
    expect(await readFile(join(app, "node_modules/create-channel/index.js"), "utf8")).toContain('"9.9.9"');
    // Scoped names arrive encoded (@errand%2fregistry-probe).
    expect(requests).toContainEqual(
      expect.objectContaining({ method: "PUT", path: "/@errand/registry-probe", status: 201 }),
    );
    // npm publish leaves the tarball in npm's cache, so the install above found it there: fetch it as a fresh client would.
    const packument = (await (await fetch(`${registry.url}@errand%2fregistry-probe`)).json()) as {
      versions: Record<string, { dist: { tarball: string; integrity: string } }>;
    };
    const { tarball, integrity } = packument.versions["1.0.0"]!.dist;
    expect(tarball).toBe(`${registry.url}@errand/registry-probe/-/registry-probe-1.0.0.tgz`);
    const bytes = Buffer.from(await (await fetch(tarball)).arrayBuffer());
    expect(`sha512-${createHash("sha512").update(bytes).digest("base64")}`).toBe(integrity);
  }, 120_000);

  it("refuses to publish over a version, and without the token", async () => {
    const again = await npm(["publish"], await makePackage("@errand/registry-probe", "1.0.0"));
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("You cannot publish over the previously published versions: 1.0.0");
    const forced = await npm(["publish", "--force"], await makePackage("@errand/registry-probe", "1.0.0"));
    expect(forced.exitCode).toBe(1);
    expect(forced.stderr).toContain("cannot publish over the previously published version 1.0.0");
    const noToken = join(root, "npmrc-no-token");
    await writeFile(noToken, `registry=${registry.url}\n//${registry.url.slice("http://".length)}:_authToken=wrong\n`);
    const unauthorized = await npm(["publish"], await makePackage("@errand/registry-probe", "2.0.0"), noToken);
    expect(unauthorized.exitCode).toBe(1);
    expect(unauthorized.stderr).toMatch(/401|E401/);
  }, 120_000);

  it("answers 404 for an Errand name nobody published, without asking upstream", async () => {
    const res = await fetch(`${registry.url}@errand%2fnot-published`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "@errand/not-published is not published to this registry" });
    expect(requests.filter((r) => r.path.includes("not-published"))).toEqual([
      expect.objectContaining({ upstream: false, status: 404 }),
    ]);
  });

  it("passes every other name through to registry.npmjs.org, tarballs included", async () => {
    const app = join(root, "proxied");
    await mkdir(app);
    await npm(["init", "-y"], app);
    const install = await npm(["install", "--no-audit", "is-number@7.0.0"], app);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(app, "node_modules/is-number/package.json"), "utf8")).version).toBe("7.0.0");
    expect(requests).toContainEqual(
      expect.objectContaining({ method: "GET", path: "/is-number", upstream: true, status: 200 }),
    );
  }, 120_000);

  it("leaves out of a passed-through package document the optional dependencies its upstream has no package for", async () => {
    // An upstream stand-in on 127.0.0.1: one package whose release names a present and an absent optional dependency.
    const asked: string[] = [];
    const upstream = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      const doc = {
        name: "tool",
        versions: {
          "1.0.0": { name: "tool", version: "1.0.0", optionalDependencies: { fsevents: "~2.3.3" } },
          "1.1.0": {
            name: "tool",
            version: "1.1.0",
            dependencies: { "left-pad": "^1.0.0", "gone-helper": "^0.1.0" },
            optionalDependencies: { fsevents: "~2.3.3", "gone-helper": "^0.1.0" },
          },
        },
      };
      if (req.url === "/tool")
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
      if (req.url === "/fsevents") return void res.writeHead(200).end("{}");
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const mirror = await startTestRegistry({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
    try {
      type Doc = { versions: Record<string, { dependencies?: object; optionalDependencies?: object }> };
      const read = async () => (await (await fetch(`${mirror.url}tool`)).json()) as Doc;
      const doc = await read();
      expect(doc.versions["1.0.0"]?.optionalDependencies).toEqual({ fsevents: "~2.3.3" });
      expect(doc.versions["1.1.0"]?.optionalDependencies).toEqual({ fsevents: "~2.3.3" });
      expect(doc.versions["1.1.0"]?.dependencies).toEqual({ "left-pad": "^1.0.0" });
      await read();
      // Each name is asked once for the registry's life.
      expect(asked.filter((a) => a.startsWith("HEAD ")).sort()).toEqual(["HEAD /fsevents", "HEAD /gone-helper"]);
    } finally {
      await mirror.close();
      upstream.close();
    }
  });

  it("refuses a publish whose tarball does not match its integrity", async () => {
    const body = {
      name: "@errand/forged",
      versions: {
        "1.0.0": { name: "@errand/forged", version: "1.0.0", dist: { integrity: "sha512-AAAA", shasum: "00" } },
      },
      "dist-tags": { latest: "1.0.0" },
      _attachments: {
        "forged-1.0.0.tgz": {
          content_type: "application/octet-stream",
          data: Buffer.from("x").toString("base64"),
          length: 1,
        },
      },
    };
    const res = await fetch(`${registry.url}@errand%2fforged`, {
      method: "PUT",
      headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "the tarball does not match the integrity and shasum of its version" });
  });
});
