import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { eventually, finished, postTicket, running, SECRET_ENV, ticketBody } from "../controller/harness.js";
import { runCli } from "../helpers/cli.js";
import { REPO, repoHarness, repositoriesYaml, startHost, TOKEN } from "./repo-setup.js";

// The real `errand run` bin, killed with SIGKILL while the agent works; the agent commits and ends meanwhile.
it("a checkout run that ended while the controller was down is Failed as unpushed, and its token file is gone", async () => {
  const host = await startHost();
  const h = repoHarness(repositoriesYaml(host), { SLEEP: "1.5" });
  const env = { ...SECRET_ENV, ERRAND_SECRET_REPO_TOKEN: TOKEN };
  const { id, body } = ticketBody({ repo_url: `${host.git.url}/${REPO}` });
  const first = runCli(["run", "--config", h.configFile], { env });
  await postTicket(await first.ready, body);
  const store = await h.openStore();
  try {
    const r = await running(store, id);
    expect(r.branch).toBe(`errand/${id}-ticket-${id.toLowerCase()}`);
    const credentials = join(h.dir, "ws", ".errand", `${r.id}.git-credentials`);
    expect(existsSync(credentials)).toBe(true);
    first.child.kill("SIGKILL");
    await first.exited;
    await eventually("the agent to end on its own", () =>
      existsSync(join(h.dir, "ws", ".errand", r.id, "result.json")) ? true : undefined,
    );
    const second = runCli(["run", "--config", h.configFile], { env });
    await second.ready;
    const run = await finished(store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toContain("its commits were not pushed and no pull request was opened; retry the run");
    expect(existsSync(credentials)).toBe(false);
    expect(host.pulls.pulls).toEqual([]);
    second.child.kill("SIGTERM");
    await second.exited;
  } finally {
    await store.close();
  }
});
