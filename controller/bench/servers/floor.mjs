// Not a peer, a yardstick: node:http plus only what any verifying intake must
// do with this request — HMAC-SHA256 over the raw body (constant-time compare)
// and one JSON.parse of it. Used by bench/cpu.bench.mjs to show how much of
// errand's cost is that floor and how much is its own pipeline.
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const key = createSecretKey(Buffer.from(process.env.BENCH_SECRET));
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const given = Buffer.from(String(req.headers["x-hub-signature-256"]).slice(7), "hex");
    const expected = createHmac("sha256", key).update(body).digest();
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    const id = ok ? String(JSON.parse(body.toString("utf8")).issue.number) : "";
    const out = ok ? `{"status":"accepted","tickets":["${id}"]}` : "{}";
    res.writeHead(ok ? 200 : 401, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(out),
    });
    res.end(out);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`ready ${server.address().port}\n`));
process.on("SIGTERM", () => process.exit(0));
