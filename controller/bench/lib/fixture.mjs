// The request every bench sends: the published code host A `issues`/`opened`
// example, signed, with a unique delivery id per request.
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const SECRET = "bench-secret-value";
const examples = require("@octokit/webhooks-examples/api.github.com/index.json");
export const payload = examples.find((g) => g.name === "issues").examples.find((e) => e.action === "opened");
export const body = JSON.stringify(payload);
export const signature = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
export const PATH = "/webhooks/github";
