import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, tooDeepAt } from "../src/webhook/parsing/json-depth.js";
import { postJson } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";

const SECRET = "generic-secret-value";
const AUTH = { authorization: `Bearer ${SECRET}` };
const FIXTURE = fileURLToPath(new URL("./fixtures/deep-json-rss.mjs", import.meta.url));

/** A generic ticket whose `x` nests `levels` arrays: the body is `levels + 1` deep. */
const nested = (levels: number) => `{"id":"D-${levels}","x":${"[".repeat(levels)}${"]".repeat(levels)}}`;

describe("webhook bodies nested deeper than MAX_JSON_DEPTH are refused before they are parsed", () => {
  it("answers 400 ERR_INVALID_BODY naming the limit; exactly 64 levels are accepted", async () => {
    const t = await startServer({ generic: { auth_mode: "bearer", secret: SECRET } });
    const ok = await postJson(t.base, "/webhooks/generic", nested(MAX_JSON_DEPTH - 1), AUTH);
    expect(ok.status).toBe(200);
    expect(ok.json.tickets).toEqual([`D-${MAX_JSON_DEPTH - 1}`]);
    for (const levels of [MAX_JSON_DEPTH, 300_000]) {
      const res = await postJson(t.base, "/webhooks/generic", nested(levels), AUTH);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("ERR_INVALID_BODY");
      const at = nested(levels).indexOf("[") + MAX_JSON_DEPTH - 1;
      expect(res.json.error.message).toBe(
        `body nests arrays and objects deeper than 64 levels (at byte ${at}); send a flatter JSON document`,
      );
    }
    expect(t.tickets.map((ticket) => ticket.id)).toEqual([`D-${MAX_JSON_DEPTH - 1}`]);
  });

  it("counts brackets outside strings only, escapes honoured", async () => {
    const t = await startServer({ generic: { auth_mode: "bearer", secret: SECRET } });
    const title = `${"[{".repeat(200)} \\" ${"[".repeat(200)} \\\\`;
    const res = await postJson(t.base, "/webhooks/generic", `{"id":"S-1","title":"${title}"}`, AUTH);
    expect(res.status).toBe(200);
    expect(t.tickets[0]?.title).toBe(JSON.parse(`"${title}"`));
    // After a string ending in an escaped backslash, brackets count again.
    expect(tooDeepAt(`{"a":"\\\\",${"[".repeat(64)}`)).toBe(73);
    expect(tooDeepAt(Buffer.from(`["é",${"{".repeat(64)}`))).toBe(69);
    // A string (a form's payload field) is counted in characters; é is two bytes, one character.
    expect(tooDeepAt(`["é",${"{".repeat(64)}`)).toBe(68);
    // An odd run of backslashes escapes the quote after it: the string goes on, and its brackets do not count.
    expect(tooDeepAt(`["\\\\\\" ${"[".repeat(80)}"]`)).toBe(-1);
    expect(tooDeepAt(`["\\\\\\\\"${"[".repeat(64)}`)).toBe(70);
    // A string left open: nothing after it counts (the parser refuses the body).
    expect(tooDeepAt(`["${"[".repeat(80)}`)).toBe(-1);
  });

  it("a server fed deeply nested bodies keeps its resident memory (measured in a fresh node)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", FIXTURE]);
    const { before, after, statuses } = JSON.parse(stdout) as { before: number; after: number; statuses: number[] };
    expect(statuses).toEqual([200, 400]);
    // Parsed, five such bodies kept about 65 MB more resident for good; refused, they cost nothing that stays.
    expect(after - before).toBeLessThan(25);
  }, 60_000);
});
