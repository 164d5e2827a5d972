import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, writeConfig } from "../helpers/cli.js";
import { createHarness, finished, postTicket, SECRET_ENV, ticketBody } from "./harness.js";

const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
function errand(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(BIN, args, { env: { ...process.env, ...env }, encoding: "utf8", timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("errand run: bad input gives one clear error and a non-zero exit", () => {
  it("a misspelled section names the key, the line and the fix", () => {
    const file = writeConfig("webhok:\n  port: 8080\n");
    const r = errand(["run", "--config", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/webhok.*did you mean.*webhook/is);
    expect(r.stdout).toBe("");
  });

  it("a missing secret names the secret, the key that names it and where it was looked for", () => {
    const h = createHarness({ engine: "ok.sh" });
    const r = errand(["run", "--config", h.configFile], { ERRAND_SECRET_E2E_WEBHOOK: "" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("e2e-webhook");
    expect(r.stderr).toContain("ERRAND_SECRET_E2E_WEBHOOK");
    expect(r.stderr).toContain("webhook.generic.secret");
  });

  it("a port another process holds names the setting to change", async () => {
    const { createServer } = await import("node:net");
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, "127.0.0.1", r));
    const port = (holder.address() as { port: number }).port;
    try {
      const h = createHarness({ engine: "ok.sh" });
      const file = writeConfig(
        readFileSync(h.configFile, "utf8").replace("  port: 0\n  generic", `  port: ${port}\n  generic`),
      );
      const r = errand(["run", "--config", file], SECRET_ENV);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the webhook server cannot listen on 127.0.0.1:${port} (EADDRINUSE`);
      expect(r.stderr).toContain("set webhook.port to a free port");
    } finally {
      holder.close();
    }
  });

  it("config check refuses what errand run would: an unknown channel backend, one port for two servers", () => {
    const file = writeConfig(`webhook:
  port: 9191
  generic: { auth_mode: none }
engines:
  default: a
  a: { kind: command, command: [/bin/true] }
ops:
  port: 9191
notifications:
  channels:
    - backend: chat_c
      config: {}
`);
    const r = errand(["config", "check", "--config", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ops\.port.*9191, the port the webhook server listens on too/);
    const channel = errand([
      "config",
      "check",
      "--config",
      writeConfig(readFileSync(file, "utf8").replace("port: 9191\nnotifications", "port: 9192\nnotifications")),
    ]);
    expect(channel.code).toBe(1);
    expect(channel.stderr).toMatch(/notifications\.channels\[0\].*chat_c/);
  });

  it("a config file that does not exist is named", () => {
    const r = errand(["run", "--config", "/nonexistent/errand.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("/nonexistent/errand.yaml");
  });
});

describe("errand runs", () => {
  it("an empty or blank run id is a user error, before any store is opened", () => {
    const h = createHarness({ engine: "ok.sh" });
    for (const command of ["show", "cancel", "retry"]) {
      for (const id of ["", "  "]) {
        const r = errand(["runs", command, id, "--config", h.configFile]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/give the id of a run.*errand runs lists them/);
        expect(r.stderr).not.toMatch(/bug in the caller|no store at/);
      }
    }
  });

  it("lists, shows, cancels and retries runs, with --json for scripts", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const cli = runCli(["run", "--config", h.configFile], { env: SECRET_ENV });
    const { id, body } = ticketBody();
    await postTicket(await cli.ready, body);
    const store = await h.openStore();
    try {
      const run = await finished(store, id);
      const list = errand(["runs", "--config", h.configFile, "--json"]);
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)).toMatchObject([{ id: run.id, state: "Succeeded" }]);
      const table = errand(["runs", "--config", h.configFile, "--state", "succeeded"]);
      expect(table.stdout).toMatch(new RegExp(`${run.id}\\s+Succeeded\\s+generic:${id}`));
      expect(errand(["runs", "--config", h.configFile, "--state", "Running"]).stdout).toBe("no runs\n");
      expect(errand(["runs", "--config", h.configFile, "--state", "bogus"]).stderr).toMatch(
        /unknown state "bogus"; use one of Queued/,
      );

      const show = errand(["runs", "show", run.id, "--config", h.configFile]);
      expect(show.code).toBe(0);
      expect(show.stdout).toContain("Timeline");
      expect(show.stdout).toMatch(/Queued → Running\s+started on local with engine fixture/);
      expect(show.stdout).toContain("pull request https://github.com/acme/shop/pull/7");
      expect(show.stdout).toContain("reading the ticket");
      const shown = JSON.parse(errand(["runs", "show", run.id, "--config", h.configFile, "--json"]).stdout);
      expect(shown.ticket).toMatchObject({ id, source: "generic", repo_url: "https://github.com/acme/shop" });
      expect(shown.transitions).toHaveLength(3);

      const cancel = errand(["runs", "cancel", run.id, "--config", h.configFile]);
      expect(cancel.code).toBe(1);
      expect(cancel.stderr).toMatch(/Succeeded/);
      expect(errand(["runs", "show", "run_nope", "--config", h.configFile]).stderr).toMatch(/no run run_nope/);

      const retry = errand(["runs", "retry", run.id, "--config", h.configFile, "--json"]);
      expect(retry.code).toBe(0);
      const second = JSON.parse(retry.stdout);
      expect(second).toMatchObject({ attempt: 2, state: "Queued", ticket: { source: "generic", id } });
      const again = await finished(store, id);
      expect(again).toMatchObject({ id: second.id, state: "Succeeded" });
      expect(h.executions()).toEqual([run.id, second.id]);
    } finally {
      await store.close();
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  }, 60_000);
});
