import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { send } from "./helpers/http.js";
import { startServer, type TestServer } from "./helpers/server.js";
import { chatAHeaders, hmacHex, hostASignature, nowSeconds, standardWebhooksHeaders } from "./helpers/sign.js";

// Bounded so the whole file stays within a few seconds on two cores.
const RUNS = 500;
const S = {
  a: "fuzz-secret-a",
  b: "fuzz-secret-b",
  tracker: "fuzz-secret-t",
  chat: "fuzz-secret-c",
  generic: "fuzz-secret-g",
};
const WHSEC = `whsec_${Buffer.from("fuzz-standard-webhooks-key-32byt").toString("base64")}`;
const PATHS = [
  "/webhooks/codehost-a",
  "/webhooks/github",
  "/webhooks/codehost-b",
  "/webhooks/gitlab",
  "/webhooks/tracker",
  "/webhooks/shortcut",
  "/webhooks/chat",
  "/webhooks/slack",
  "/webhooks/generic",
];
const HEADER_NAMES = [
  "content-type",
  "x-hosta-event",
  "x-github-event",
  "x-hub-signature-256",
  "x-hostb-token",
  "x-gitlab-token",
  "x-tracker-signature",
  "payload-signature",
  "x-chat-signature",
  "x-slack-signature",
  "x-chat-request-timestamp",
  "x-slack-request-timestamp",
  "x-webhook-signature",
  "authorization",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
  "x-github-delivery",
  "idempotency-key",
  "transfer-encoding",
];

const headerValue = fc.oneof(
  fc.string({ unit: fc.constantFrom(..." !#$%&'()*+,-./0123456789:;<=>?@ABCDEFabcdefvxyz=_[]{}|~"), maxLength: 80 }),
  fc.constantFrom(
    "issues",
    "application/json",
    "application/x-www-form-urlencoded",
    "sha256=",
    "v0=",
    "v1,",
    "Bearer ",
    "text/plain",
    "ping",
  ),
  fc.integer({ min: 0, max: 2_000_000_000 }).map(String),
  fc.stringMatching(/^sha256=[0-9a-f]{64}$/),
);
const jsonish = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({
      action: fc.constantFrom("opened", "labeled", "x"),
      issue: fc.anything(),
      object_kind: fc.constantFrom("issue", "merge_request"),
      actions: fc.anything(),
    })
    .map((v) => JSON.stringify(v)),
  fc.string(),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString("latin1")),
);

async function allSources(): Promise<TestServer> {
  return startServer({
    secrets: { codehost_a: S.a, codehost_b: S.b, tracker_b: S.tracker, chat_a: S.chat },
    generic: { auth_mode: "hmac", secret: S.generic, field_mapping: { "a.b[0]": "id", t: "title", l: "labels" } },
  });
}

/** A correctly signed request for `path`'s source over `body`. */
function signFor(path: string, body: string, contentType: string): Record<string, string> {
  const h: Record<string, string> = { "content-type": contentType };
  if (path.includes("codehost-a") || path.includes("github"))
    return { ...h, "x-github-event": "issues", "x-hub-signature-256": hostASignature(S.a, body) };
  if (path.includes("codehost-b") || path.includes("gitlab")) return { ...h, "x-gitlab-token": S.b };
  if (path.includes("tracker") || path.includes("shortcut"))
    return { ...h, "payload-signature": hmacHex(S.tracker, body) };
  if (path.includes("chat") || path.includes("slack")) return { ...h, ...chatAHeaders(S.chat, body, nowSeconds()) };
  return { ...h, "x-webhook-signature": hmacHex(S.generic, body) };
}

describe("property-based fuzz", () => {
  it("random requests never get a 5xx and never make a ticket without valid authentication", async () => {
    const t = await allSources();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS, "/healthz", "/metrics", "/webhooks/x", "/%zz", "//webhooks//github"),
        fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "HEAD", "OPTIONS"),
        fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { maxKeys: 6 }),
        jsonish,
        async (path, method, headers, body) => {
          delete headers["transfer-encoding"];
          const res = await send(t.base, path, {
            method,
            headers,
            body: method === "GET" || method === "HEAD" ? undefined : body,
          });
          expect(res.status).toBeLessThan(500);
          expect(t.tickets).toHaveLength(0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("a signed request with its body or signature mutated is refused with 401", async () => {
    const t = await allSources();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS.filter((p) => !p.includes("gitlab") && !p.includes("codehost-b"))),
        fc
          .jsonValue()
          .map((v) => JSON.stringify({ id: 1, a: { b: [1] }, actions: [], action: "opened", issue: { number: 1 }, v })),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        async (path, body, position, xor, mutateSignature) => {
          const headers = signFor(path, body, "application/json");
          let sent = body;
          if (mutateSignature) {
            const name = Object.keys(headers).find((k) => /signature/.test(k)) as string;
            const value = headers[name] as string;
            const i = value.length - 1 - (position % 16);
            const c = value[i] === "0" ? "1" : "0";
            headers[name] = value.slice(0, i) + c + value.slice(i + 1);
          } else {
            const bytes = Buffer.from(body);
            const i = position % bytes.length;
            bytes[i] = (bytes[i] as number) ^ xor;
            sent = bytes.toString("latin1");
            if (Buffer.from(sent, "latin1").equals(Buffer.from(body))) return;
            return void (await send(t.base, path, { body: bytes, headers }).then((res) => {
              expect(res.status).toBe(401);
              expect(t.tickets).toHaveLength(0);
            }));
          }
          const res = await send(t.base, path, { body: sent, headers });
          expect(res.status).toBe(401);
          expect(t.tickets).toHaveLength(0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("correctly signed random bodies get 200, 400 or 415, never a 5xx", async () => {
    const t = await allSources();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        jsonish,
        fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain"),
        async (path, body, contentType) => {
          const res = await send(t.base, path, { body, headers: signFor(path, body, contentType) });
          expect([200, 400, 415]).toContain(res.status);
          if (res.status !== 200) expect(typeof res.json.error.code).toBe("string");
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("standard webhooks: any mutated header or body is refused", async () => {
    const t = await startServer({ generic: { auth_mode: "standard_webhooks", secret: WHSEC } });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("webhook-id", "webhook-timestamp", "webhook-signature", "body"),
        fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom(..."abcXYZ019+/=") }),
        async (target, extra) => {
          const body = JSON.stringify({ id: "x" });
          const headers = standardWebhooksHeaders(WHSEC, "msg_fuzz", nowSeconds(), body);
          const sent = target === "body" ? body + extra : body;
          if (target !== "body") headers[target] = `${headers[target]}${extra}`;
          const res = await send(t.base, "/webhooks/generic", {
            body: sent,
            headers: { "content-type": "application/json", ...headers },
          });
          expect(res.status).toBe(401);
        },
      ),
      { numRuns: 100 },
    );
    expect(t.tickets).toHaveLength(0);
  });
});
