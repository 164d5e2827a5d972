import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeDiscord, startFakeDiscord } from "./fake-discord.js";

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord({ limit: 1000 });
});
afterAll(async () => {
  await fake.close();
});

const post = async (body: string, contentType = "application/json", url = fake.webhookUrl()) => {
  const response = await fetch(`${url}?wait=true`, { method: "POST", body, headers: { "content-type": contentType } });
  return {
    status: response.status,
    json: response.status === 204 ? undefined : await response.json(),
    headers: response.headers,
  };
};

describe("the fake is as strict as the platform", () => {
  it("wants JSON and something to show", async () => {
    expect(await post("content=hi", "application/x-www-form-urlencoded")).toMatchObject({
      status: 400,
      json: { code: 50006 },
    });
    expect(await post("{oops")).toMatchObject({ status: 400, json: { code: 50109 } });
    expect(await post("{}")).toMatchObject({
      status: 400,
      json: { message: "Cannot send an empty message", code: 50006 },
    });
  });

  it("answers limit violations with the Invalid Form Body shape", async () => {
    const body = {
      content: "c".repeat(2001),
      username: "discord",
      embeds: [
        {
          title: "t".repeat(257),
          fields: [
            { name: "n", value: "v".repeat(1025) },
            { name: "", value: "x" },
          ],
        },
      ],
    };
    const { status, json } = await post(JSON.stringify(body));
    expect(status).toBe(400);
    expect(json).toMatchObject({
      code: 50035,
      message: "Invalid Form Body",
      errors: {
        content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] },
        username: { _errors: [{ code: "USERNAME_INVALID_CONTAINS" }] },
        embeds: {
          "0": {
            title: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] },
            fields: {
              "0": { value: { _errors: [{ message: "Must be 1024 or fewer in length." }] } },
              "1": { name: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } },
            },
          },
        },
      },
    });
  });

  it("counts 6000 characters across all embeds, and at most 10 embeds", async () => {
    const embeds = Array.from({ length: 11 }, () => ({ description: "d".repeat(600) }));
    const { json } = await post(JSON.stringify({ embeds }));
    expect(json).toMatchObject({
      errors: { embeds: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }, { code: "MAX_EMBED_SIZE_EXCEEDED" }] } },
    });
  });

  it("sends rate-limit headers on every answer, and 404/401 for unknown webhooks and tokens", async () => {
    const ok = await post(JSON.stringify({ content: "hi" }));
    expect(ok.status).toBe(200);
    for (const name of [
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      "x-ratelimit-reset-after",
      "x-ratelimit-bucket",
    ]) {
      expect(ok.headers.get(name)).toBeTruthy();
    }
    expect(await post("{}", "application/json", `${fake.url}/api/webhooks/9/x`)).toMatchObject({
      status: 404,
      json: { code: 10015 },
    });
    expect(await post("{}", "application/json", `${fake.url}/api/webhooks/111/x`)).toMatchObject({
      status: 401,
      json: { code: 50027 },
    });
  });

  it("answers 429 with a float retry_after and Retry-After over the bucket", async () => {
    const strict = await startFakeDiscord({ limit: 2, windowMs: 1000 });
    const send = () =>
      fetch(strict.webhookUrl(), {
        method: "POST",
        body: JSON.stringify({ content: "x" }),
        headers: { "content-type": "application/json" },
      });
    await send();
    await send();
    const limited = await send();
    expect(limited.status).toBe(429);
    const body = (await limited.json()) as { retry_after: number; global: boolean };
    expect(body.global).toBe(false);
    expect(body.retry_after).toBeGreaterThan(0.5);
    expect(body.retry_after).toBeLessThanOrEqual(1);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(strict.rateLimited).toBe(1);
    await strict.close();
  });
});
