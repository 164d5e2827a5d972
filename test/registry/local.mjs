#!/usr/bin/env node
// `npm run registry:local`: makes this checkout's unreleased packages
// installable by name. Builds them, starts the test registry on 127.0.0.1,
// publishes every Errand package to it, writes an npm config pointing at it
// (with the user's own settings carried over: nodedir, proxies, cache, …),
// prints how to use it, and serves until Ctrl-C. Every other package comes
// from registry.npmjs.org through it. Options: --port <n> (default 4873,
// or ERRAND_REGISTRY_PORT; 0 picks a free one), --no-build (or
// ERRAND_REGISTRY_BUILD=0) when the packages are built already.
import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { keptUserLines, npmrcLines, proxyExemption, userNpmrc, writeNpmrc } from "./npmrc.mjs";
import { forgetNpxInstalls, publishPackages, REPO, userEnvironment } from "./publish-packages.mjs";
import { startTestRegistry } from "./registry-server.mjs";

const args = process.argv.slice(2);
const portArg = args.includes("--port") ? args[args.indexOf("--port") + 1] : process.env.ERRAND_REGISTRY_PORT;
const port = Number(portArg ?? 4873);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`registry:local: --port must be a port number (0 to 65535), not ${JSON.stringify(portArg)}\n`);
  process.exit(2);
}

if (!args.includes("--no-build") && process.env.ERRAND_REGISTRY_BUILD !== "0") {
  process.stdout.write("building every package (npm run build) …\n");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: REPO, stdio: "inherit" });
}

let registry;
try {
  registry = await startTestRegistry({ port });
} catch (error) {
  const inUse = /** @type {NodeJS.ErrnoException} */ (error).code === "EADDRINUSE";
  process.stderr.write(
    `registry:local: cannot listen on 127.0.0.1:${port}: ${inUse ? "the port is in use (another registry:local?); pass --port <n>, or --port 0 for any free port" : /** @type {Error} */ (error).message}\n`,
  );
  process.exit(1);
}
const npmrc = join(tmpdir(), `errand-registry-${registry.port}`, "npmrc");
// The written config replaces the user's in the shells that use it: without their settings, native builds
// (nodedir), proxies and caches would be lost there.
const user = await userNpmrc();
await writeNpmrc(
  npmrc,
  registry,
  user ? [`# carried over from ${user.file}`, ...keptUserLines(user.text, registry)] : [],
);
try {
  const published = await publishPackages({ userconfig: npmrc });
  // npx would otherwise keep running a create-channel of the same version it installed before.
  const forgotten = await forgetNpxInstalls({ ...userEnvironment(), NPM_CONFIG_USERCONFIG: npmrc });
  const say = (line = "") => process.stdout.write(`${line}\n`);
  say(`\nErrand's packages, published to ${registry.url}:`);
  for (const { name, version } of published) say(`  ${name}@${version}`);
  say("every other package comes from https://registry.npmjs.org through it.");
  if (forgotten > 0)
    say("(npx's cached install of create-channel was removed, so that npx create-channel runs this checkout's.)");
  say(
    "\nPut these lines in an .npmrc in the folder you scaffold, install and publish from (your ~/.npmrc stays in effect):",
  );
  for (const line of [...npmrcLines(registry), ...proxyExemption(user?.text ?? "", registry, process.env)])
    say(`  ${line}`);
  say("or, for a whole shell:");
  say(`  export NPM_CONFIG_USERCONFIG=${npmrc}`);
  say(
    user
      ? `(that file is used instead of ${user.file}; it carries that file's settings over, all but its registry)`
      : "(that file is used instead of ~/.npmrc, which does not exist)",
  );
  say("\nThe packages live as long as this runs; stop it with Ctrl-C.");
} catch (error) {
  process.stderr.write(`registry:local: ${/** @type {Error} */ (error).message}\n`);
  await registry.close();
  process.exit(1);
}

// Its npm config goes with it: it points at a registry that no longer answers.
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.once(signal, () => {
    void registry
      .close()
      .then(() => rm(dirname(npmrc), { recursive: true, force: true }))
      .then(() => process.exit(0));
  });
}
