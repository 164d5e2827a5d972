import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import { commandLine, parseUnit, systemdAnalyze } from "./helpers/systemd-unit.js";

// deploy/systemd/errand.service, the unit docs/operators-guide.md ships: systemd accepts it, it starts the bin
// itself (npx does not pass SIGTERM on), and the process its ExecStart starts stops gracefully on systemd's SIGTERM.
const root = fileURLToPath(new URL("../..", import.meta.url));
const UNIT_FILE = join(root, "deploy/systemd/errand.service");
const unit = parseUnit(readFileSync(UNIT_FILE, "utf8"));
const service = (key: string) => unit.get("Service")?.get(key) ?? [];
const one = (key: string) => service(key).at(-1);
const INSTALL_DIR = "/opt/errand";
const analyze = systemdAnalyze();
const required = process.env.ERRAND_REQUIRE_SYSTEMD === "1";

/** The controller's defaults, as `errand config check --json` reports them for an empty file. */
function defaults(): {
  ops: { shutdown_grace_seconds: number };
  webhook: { timeouts: { shutdown_ms: number } };
  execution: { local: { kill_grace_ms: number } };
} {
  const file = join(tempDir("errand-systemd-defaults-"), "errand.yaml");
  writeFileSync(file, "");
  const out = execFileSync(join(root, "controller/bin/errand.cjs"), ["config", "check", "--config", file, "--json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out).config;
}

function portClosed(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      done(false);
    });
    socket.once("error", () => done(true));
  });
}

describe("deploy/systemd/errand.service", () => {
  it("starts the installed bin directly, not through npx or npm", () => {
    const argv = commandLine(one("ExecStart") ?? "");
    expect(argv[0]).toBe(`${INSTALL_DIR}/node_modules/.bin/errand`);
    expect(argv.slice(1, 2)).toEqual(["run"]);
    expect(argv.filter((word) => /(^|\/)(npx|npm)$/.test(word))).toEqual([]);
  });

  it("signals the controller alone and waits longer than its graceful shutdown takes", () => {
    expect(one("KillMode")).toBe("mixed");
    expect(one("KillSignal") ?? "SIGTERM").toBe("SIGTERM");
    const d = defaults();
    const shutdownMs =
      d.webhook.timeouts.shutdown_ms + d.ops.shutdown_grace_seconds * 1000 + d.execution.local.kill_grace_ms;
    expect(Number(one("TimeoutStopSec")) * 1000).toBeGreaterThan(shutdownMs + 10_000);
  });

  it("restarts on failure as a dedicated, unprivileged user with the file system read-only but its state folder", () => {
    expect(one("Restart")).toBe("on-failure");
    expect(one("User")).toMatch(/^(?!root$)\w+/);
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("StateDirectory")).toBe("errand");
    // V8 compiles to executable memory: this option would stop node at start.
    expect(one("MemoryDenyWriteExecute")).toBeUndefined();
  });

  describe.runIf(!analyze && required)("systemd-analyze", () => {
    it("is installed (ERRAND_REQUIRE_SYSTEMD=1): apt-get install systemd", () => {
      expect(analyze).toBeDefined();
    });
  });

  it.skipIf(!analyze)("passes systemd-analyze verify without a warning (ExecStart pointed at this clone's bin)", () => {
    const copy = join(tempDir("errand-systemd-verify-"), "errand.service");
    writeFileSync(copy, readFileSync(UNIT_FILE, "utf8").replaceAll(`${INSTALL_DIR}/`, `${root}/`));
    const result = analyze!(copy);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("the process ExecStart starts is the controller: SIGTERM to it shuts the controller down gracefully, exit 0", async () => {
    const dir = tempDir("errand-systemd-run-");
    const config = join(dir, "errand.yaml");
    writeFileSync(
      config,
      `webhook: { host: 127.0.0.1, port: 0, generic: { auth_mode: bearer, secret: { secret: systemd-test } } }
engines: { default: noop, noop: { kind: command, command: [/bin/true] } }
store: { path: ${join(dir, "errand.db")} }
execution: { local: { workspace_dir: ${join(dir, "ws")}, log_dir: ${join(dir, "logs")} } }
ops: { host: 127.0.0.1, port: 0 }
`,
    );
    const argv = commandLine(one("ExecStart")!).map((word) =>
      word.replace(INSTALL_DIR, root).replace("/etc/errand/errand.yaml", config),
    );
    const env = { ...process.env, NODE_ENV: "production", HOME: dir, ERRAND_SECRET_SYSTEMD_TEST: "a-bearer-token" };
    const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const port = await new Promise<number>((ready, fail) => {
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        const listening = /"@message":"webhook server listening".*?"port":(\d+)/.exec(stderr);
        if (listening) ready(Number(listening[1]));
      });
      void exited.then(() => fail(new Error(`exited before listening: ${stderr}`)));
    });
    child.kill("SIGTERM");
    expect(await exited, stderr).toBe(0);
    expect(stderr).toMatch(/"@message":"shutting down".*"signal":"SIGTERM"/);
    expect(stderr).toContain('"@message":"controller stopped"');
    expect(await portClosed(port)).toBe(true);
  }, 30_000);
});
