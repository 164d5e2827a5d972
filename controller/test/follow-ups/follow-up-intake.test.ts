import { createRequire } from "node:module";
import { join } from "node:path";
import { createLogger, silentLogger } from "@errand/channel-sdk/host";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { parseWebhookConfig } from "../../src/config/parse-webhook-config.js";
import { createFollowUpIntake } from "../../src/follow-ups/follow-up-intake.js";
import { createBatchedSink } from "../../src/intake/batched-sink.js";
import { repositoriesConfig } from "../../src/repositories/repositories-schema.js";
import { createWebhookSource } from "../../src/sources/webhook-source.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { createReviewReader } from "../../src/vendors/codehost-a/review-comments.js";
import { postJson } from "../helpers/http.js";
import { hostASignature } from "../helpers/sign.js";
import { type FakeCodehostA, startFakeCodehostA } from "../sources/codehost-a/fake-codehost-a.js";
import { fakePulls } from "../sources/codehost-a/fake-reviews.js";
import { ticket } from "../store/conformance/support.js";

const SECRET = "follow-up-hook-secret";
const PR = "https://codehost-a.test/acme/shop/pull/7";
const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: the vendor's published examples are deep JSON that the tests edit in place
type Example = Record<string, any>;
const groups = require("@octokit/webhooks-examples/api.github.com/index.json") as Array<{
  name: string;
  examples: Example[];
}>;
/** A copy of the vendor's first published example of `event` with `action`, for the tests to adapt. */
const example = (event: string, action: string): Example =>
  structuredClone(groups.find((g) => g.name === event)?.examples.find((e) => e.action === action)) as Example;

/** Points an example at acme/shop's pull request `number`. */
function onPull(payload: Example, number = 7): Example {
  payload.repository.owner.login = "acme";
  payload.repository.name = "shop";
  const pull = payload.pull_request ?? payload.issue;
  pull.number = number;
  pull.html_url = `https://codehost-a.test/acme/shop/pull/${number}`;
  if (payload.pull_request) pull.head.ref = "errand/42-fix-it";
  else pull.pull_request = { html_url: pull.html_url, url: `https://api.test/repos/acme/shop/pulls/${number}` };
  return payload;
}

const review = (state = "changes_requested", body = "Please fix these.") => {
  const p = onPull(example("pull_request_review", "submitted"));
  Object.assign(p.review, { id: 55, state, body, author_association: "MEMBER" });
  p.review.user.login = "alice";
  return p;
};
const comment = (
  event: "pull_request_review_comment" | "issue_comment",
  body: string,
  login = "alice",
  assoc = "MEMBER",
  number = 7,
) => {
  const p = onPull(example(event, "created"), number);
  Object.assign(p.comment, { body, author_association: assoc, line: 12, path: "src/cart.ts" });
  p.comment.user.login = login;
  return p;
};

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The controller's webhook intake with the follow-up intake, a SQLite store holding a run that opened PR 7, and the REST fake. */
async function start() {
  const fake: FakeCodehostA = await startFakeCodehostA({ owner: "acme", name: "shop" });
  fakePulls(fake.repo).set(7, {
    number: 7,
    head: "errand/42-fix-it",
    base: "main",
    reviews: new Map([
      [
        55,
        [
          { author: "alice", body: "Rename this.", path: "src/cart.ts", line: 3 },
          { author: "alice", body: "Handle empty carts.", path: "src/total.ts", line: 40 },
        ],
      ],
    ]),
  });
  const store: Store = await createSqliteStore({
    path: join(tempDir("errand-follow-"), "errand.db"),
    checkpointIntervalMs: 0,
  });
  const [accepted] = await store.acceptTickets([ticket("42", "codehost_a")], "default");
  const runId = accepted?.kind === "queued" ? accepted.runId : "";
  await store.transition({ runId, from: ["Queued"], to: "Running", reason: "slot" });
  const result = { success: true, summary: "fixed", pullRequestUrl: PR, failureReason: "" };
  await store.transition({ runId, from: ["Running"], to: "Succeeded", reason: "done", patch: { result } });
  const { config } = parseWebhookConfig(
    { webhook: { host: "127.0.0.1", port: 0, secrets: { codehost_a: SECRET } } },
    { env: {}, baseDir: "." },
  );
  const repos = repositoriesConfig.parse({
    codehost_a: {
      token_secret: "codehost-a-token",
      api_base_url: fake.url,
      bot_login: "errand-bot",
      follow_ups: { max_per_pull_request: 2 },
    },
  }).codehostA;
  if (repos === undefined) throw new Error("no codehost_a");
  const onReviews = createFollowUpIntake({
    config: repos,
    store,
    reviews: createReviewReader(fake.url, { token: async () => fake.token }),
    logger: silentLogger,
  });
  const logs: string[] = [];
  const logger = createLogger({ level: "info", write: (line) => logs.push(line) });
  const source = createWebhookSource({ config, store, logger, registry: new Registry(), onReviews });
  await source.start(createBatchedSink({ store, engine: "default", onCommitted: () => {} }));
  stops.push(async () => {
    await source.stop();
    await store.close();
    await fake.close();
  });
  const base = `http://127.0.0.1:${source.server?.address?.port}`;
  let n = 0;
  const post = (event: string, payload: Example, delivery = `d${++n}`) => {
    const body = JSON.stringify(payload);
    const headers = {
      "x-github-event": event,
      "x-github-delivery": delivery,
      "x-hub-signature-256": hostASignature(SECRET, body),
    };
    return postJson(base, "/webhooks/codehost-a", body, headers);
  };
  return { store, fake, runId, post, logs };
}

describe("follow-ups on review, through code host A's webhook", () => {
  it("a review with changes requested queues a follow-up with the review's comments, file and line; a redelivery adds nothing", async () => {
    const t = await start();
    const res = await t.post("pull_request_review", review(), "delivery-1");
    expect(res.json).toEqual({ status: "accepted", tickets: ["42"] });
    const runs = await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } });
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({
      state: "Queued",
      attempt: 2,
      parentRunId: t.runId,
      followUp: {
        pullRequest: { number: 7, url: PR, branch: "errand/42-fix-it" },
        trigger: "review",
        reviewState: "changes_requested",
        comments: [
          { author: "alice", body: "Please fix these." },
          { author: "alice", body: "Rename this.", path: "src/cart.ts", line: 3 },
          { author: "alice", body: "Handle empty carts.", path: "src/total.ts", line: 40 },
        ],
      },
    });
    expect(t.fake.arrived).toEqual(["GET /repos/acme/shop/pulls/7/reviews/55/comments?per_page=100"]);
    expect((await t.post("pull_request_review", review(), "delivery-1")).json).toEqual({ status: "duplicate" });
    expect(await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } })).toHaveLength(2);
  });

  it("a code host that fails while the review is read answers 503 and keeps nothing; the redelivery goes through", async () => {
    const t = await start();
    t.fake.inject({ kind: "error", status: 502 }, { match: /reviews\/55\/comments/ });
    const failed = await t.post("pull_request_review", review(), "delivery-9");
    expect(failed.status).toBe(503);
    expect(await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } })).toHaveLength(1);
    const again = await t.post("pull_request_review", review(), "delivery-9");
    expect(again.json).toEqual({ status: "accepted", tickets: ["42"] });
    expect(await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } })).toHaveLength(2);
  });

  it("a comment mentioning the phrase on the conversation queues one, its branch read from the pull request", async () => {
    const t = await start();
    const res = await t.post("issue_comment", comment("issue_comment", "@errand please add a test"));
    expect(res.json).toEqual({ status: "accepted", tickets: ["42"] });
    const [latest] = await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } });
    expect(latest?.followUp).toEqual({
      pullRequest: { number: 7, url: PR, branch: "errand/42-fix-it" },
      trigger: "issue_comment",
      comments: [{ author: "alice", body: "@errand please add a test" }],
    });
    expect(t.fake.arrived).toEqual(["GET /repos/acme/shop/pulls/7"]);
  });

  it("a review comment mentioning the phrase keeps its file and line; a second one while the first runs is ignored", async () => {
    const t = await start();
    const first = await t.post(
      "pull_request_review_comment",
      comment("pull_request_review_comment", "@Errand use a map here"),
    );
    expect(first.json.status).toBe("accepted");
    const [latest] = await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } });
    expect(latest?.followUp?.comments).toEqual([
      { author: "alice", body: "@Errand use a map here", path: "src/cart.ts", line: 12 },
    ]);
    const second = await t.post(
      "pull_request_review_comment",
      comment("pull_request_review_comment", "@errand and here"),
    );
    expect(second.json).toEqual({
      status: "ignored",
      reason: expect.stringContaining("a run is already active for this pull request"),
    });
  });

  it.each([
    ["a review that only comments", "pull_request_review", () => review("commented"), 'review state "commented"'],
    [
      "a comment without the phrase",
      "pull_request_review_comment",
      () => comment("pull_request_review_comment", "nice"),
      "does not mention @errand",
    ],
    [
      "a comment naming another login that starts with the phrase",
      "issue_comment",
      () => comment("issue_comment", "cc @errand-bot and me@errand.dev", "alice"),
      "does not mention @errand",
    ],
    [
      "the agent's own comment",
      "issue_comment",
      () => comment("issue_comment", "@errand done", "errand-bot"),
      "the agent's own login",
    ],
    [
      "a commenter without write access",
      "issue_comment",
      () => comment("issue_comment", "@errand hi", "eve", "CONTRIBUTOR"),
      "only OWNER, MEMBER or COLLABORATOR",
    ],
    [
      "a pull request errand did not open",
      "issue_comment",
      () => comment("issue_comment", "@errand hi", "alice", "OWNER", 8),
      "was not opened by errand",
    ],
  ])("ignores %s with the reason, and starts nothing", async (_what, event, payload, reason) => {
    const t = await start();
    const res = await t.post(event, payload());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ignored", reason: expect.stringContaining(reason) });
    expect(await t.store.listRuns({ ticket: { source: "codehost_a", id: "42" } })).toHaveLength(1);
    // The request's log line says why too.
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l["@message"] === "webhook request");
    expect(line).toMatchObject({ outcome: "ignored", reason: expect.stringContaining(reason) });
  });

  it("leaves an issue comment on an issue to the issue parser", async () => {
    const t = await start();
    const payload = example("issue_comment", "created");
    delete payload.issue.pull_request;
    const res = await t.post("issue_comment", payload);
    expect(res.json).toEqual({ status: "ignored", reason: 'event "issue_comment" is not ingested' });
  });
});
