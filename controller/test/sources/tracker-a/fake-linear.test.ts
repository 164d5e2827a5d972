import { AuthenticationLinearError, LinearClient, LinearDocument, RatelimitedLinearError } from "@linear/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeLinear, startFakeLinear } from "./fake-linear.js";

let fake: FakeLinear;
beforeEach(async () => {
  fake = await startFakeLinear();
});
afterEach(async () => {
  await fake.close();
});

async function post(body: unknown, headers: Record<string, string> = { authorization: fake.token }) {
  const response = await fetch(fake.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as {
      data?: Record<string, unknown>;
      errors?: Array<{ message: string; extensions: { type: string; code: string } }>;
    },
  };
}

const issueLabels = String(LinearDocument.IssueLabelsDocument);

describe("the fake tracker A API is as strict as the real one", () => {
  it("serves the genuine LinearClient: teams with the fields its documents select", async () => {
    const client = new LinearClient({ apiKey: fake.token, apiUrl: fake.url });
    const teams = await client.teams();
    expect(teams.nodes.map((t) => [t.key, t.name])).toEqual([
      ["ENG", "Engineering"],
      ["OPS", "Operations"],
    ]);
    expect(teams.pageInfo.hasNextPage).toBe(false);
  });

  it("answers 401 with the API's error body without a token or with a wrong one; the SDK reads it as an authentication error", async () => {
    for (const headers of [{}, { authorization: "lin_api_wrong" }, { authorization: `Bearer ${fake.token}` }] as Array<
      Record<string, string>
    >) {
      const answer = await post({ query: issueLabels }, headers);
      expect(answer.status).toBe(401);
      expect(answer.body.errors?.[0]?.extensions).toMatchObject({
        type: "authentication error",
        code: "AUTHENTICATION_ERROR",
      });
    }
    const error = await new LinearClient({ apiKey: "lin_api_wrong", apiUrl: fake.url })
      .teams()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationLinearError);
  });

  it("takes only the SDK's own documents, word for word", async () => {
    const answer = await post({ query: "query issueLabels { issueLabels { nodes { id name } } }" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toBe(
      "operation issueLabels is not one of @linear/sdk's documents, word for word",
    );
    expect((await post({ query: issueLabels.replace("isGroup", "") })).status).toBe(400);
  });

  it("checks variables against the document: unknown names, missing required ones, wrong types", async () => {
    const unknown = await post({ query: issueLabels, variables: { teamId: "x" } });
    expect(unknown.body.errors?.[0]?.message).toBe('Variable "$teamId" is not defined by operation "issueLabels".');
    const missing = await post({ query: String(LinearDocument.Team_StatesDocument), variables: {} });
    expect(missing.body.errors?.[0]?.message).toBe('Variable "$id" of required type "String!" was not provided.');
    const wrong = await post({ query: issueLabels, variables: { first: "50" } });
    expect(wrong.body.errors?.[0]?.message).toMatch(/^Variable "\$first" got invalid value "50"; expected type Int\./);
  });

  it("refuses input fields the input type does not declare", async () => {
    const issue = fake.ws.addIssue();
    const answer = await post({
      query: String(LinearDocument.UpdateIssueDocument),
      variables: { id: issue.id, input: { labelNames: ["agent"] } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toBe('Field "labelNames" is not defined by type "IssueUpdateInput".');
    expect(fake.ws.changes).toEqual([]);
  });

  it("refuses another team's label and a group label on an issue", async () => {
    const issue = fake.ws.addIssue();
    for (const label of [fake.ws.label("ops-only").id, fake.ws.labels.find((l) => l.isGroup)?.id]) {
      const answer = await post({
        query: String(LinearDocument.UpdateIssueDocument),
        variables: { id: issue.id, input: { addedLabelIds: [label] } },
      });
      expect(answer.body.errors?.[0]?.extensions.type).toBe("invalid input");
    }
    expect(fake.ws.labelsOf(issue.identifier)).toEqual([]);
  });

  it("pages with first/after, refusing first over 250 and unknown cursors", async () => {
    const page = await post({ query: issueLabels, variables: { first: 2 } });
    const connection = page.body.data?.issueLabels as {
      nodes: Array<{ id: string }>;
      pageInfo: { hasNextPage: boolean; endCursor: string };
    };
    expect(connection.nodes).toHaveLength(2);
    expect(connection.pageInfo.hasNextPage).toBe(true);
    const next = await post({ query: issueLabels, variables: { first: 2, after: connection.pageInfo.endCursor } });
    expect((next.body.data!.issueLabels as { nodes: Array<{ id: string }> }).nodes[0]?.id).not.toBe(
      connection.nodes[0]?.id,
    );
    expect((await post({ query: issueLabels, variables: { first: 251 } })).status).toBe(400);
    expect((await post({ query: issueLabels, variables: { after: "nope" } })).status).toBe(400);
  });

  it("sends the X-RateLimit-* headers, and RATELIMITED with them once a budget is spent", async () => {
    const ok = await post({ query: issueLabels });
    expect(Number(ok.headers.get("x-ratelimit-requests-remaining"))).toBe(4_999);
    expect(Number(ok.headers.get("x-ratelimit-complexity-remaining"))).toBeLessThan(3_000_000);
    expect(Number(ok.headers.get("x-complexity"))).toBeGreaterThan(1);
    fake.exhaust("requests", 60_000);
    const limited = await post({ query: issueLabels });
    expect(limited.status).toBe(400);
    expect(limited.body.errors?.[0]?.extensions).toMatchObject({ type: "ratelimited", code: "RATELIMITED" });
    expect(Number(limited.headers.get("x-ratelimit-requests-reset"))).toBeGreaterThan(Date.now());
    const error = await new LinearClient({ apiKey: fake.token, apiUrl: fake.url })
      .issueLabels()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RatelimitedLinearError);
    expect((error as RatelimitedLinearError).requestsRemaining).toBe(0);
  });

  it("answers only POST /graphql", async () => {
    expect((await fetch(fake.url)).status).toBe(405);
    expect((await fetch(fake.url.replace("/graphql", "/rest"), { method: "POST" })).status).toBe(404);
  });
});
