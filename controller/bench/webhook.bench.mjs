// npm run bench:webhook — signed code host A `issues` events through three
// servers, one at a time, each in its own process, loaded by autocannon.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import autocannon from "autocannon";

const require = createRequire(import.meta.url);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECRET = "bench-secret-value";

const examples = require("@octokit/webhooks-examples/api.github.com/index.json");
const payload = examples.find((g) => g.name === "issues").examples.find((e) => e.action === "opened");
const body = JSON.stringify(payload);
const signature = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;

const SERVERS = [
  { name: "bare node:http", file: "bare.mjs" },
  { name: "errand webhook", file: "errand.mjs" },
  { name: "@octokit/webhooks", file: "octokit.mjs" },
];

function startServer(file) {
  const child = spawn(process.execPath, [new URL(`./servers/${file}`, import.meta.url).pathname], {
    env: { ...process.env, BENCH_SECRET: SECRET, ERRAND_LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      const m = /ready (\d+)/.exec(String(d));
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

async function load(port, duration) {
  let n = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: "POST",
        path: "/webhooks/github",
        setupRequest: (req) => ({
          ...req,
          body,
          headers: {
            "content-type": "application/json",
            "x-github-event": "issues",
            "x-github-delivery": `bench-${process.pid}-${n++}`,
            "x-hub-signature-256": signature,
          },
        }),
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, total: result.requests.total };
}

async function measure(server) {
  const { child, port } = await startServer(server.file);
  try {
    await load(port, 2); // warm-up: JIT, connection pools
    return await load(port, DURATION);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

const runs = Object.fromEntries(SERVERS.map((s) => [s.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const server of SERVERS) {
    const r = await measure(server);
    runs[server.name].push(r);
    console.error(`round ${round + 1} ${server.name}: ${r.rps.toFixed(0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms non-2xx ${r.non2xx} errors ${r.errors}`);
  }
}

// Median of the rounds per server (the mean of the two middle values for an even count).
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const summary = SERVERS.map((s) => {
  const rs = runs[s.name];
  return { name: s.name, rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), non2xx: rs.reduce((a, r) => a + r.non2xx + r.errors, 0) };
});
const bare = summary[0];
console.log(`\nNode ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}); body ${Buffer.byteLength(body)} bytes; ${CONNECTIONS} connections; ${DURATION} s per run after 2 s warm-up; median of ${ROUNDS} rounds\n`);
console.log("| server | req/s | ratio to bare | p50 ms | p99 ms | p99 / bare p99 | non-2xx + errors |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const s of summary) {
  console.log(`| ${s.name} | ${s.rps.toFixed(0)} | ${(s.rps / bare.rps).toFixed(2)} | ${s.p50} | ${s.p99} | ${(s.p99 / bare.p99).toFixed(2)} | ${s.non2xx} |`);
}
const errand = summary[1];
const pass = errand.rps / bare.rps >= 0.8 && errand.p99 <= 1.5 * bare.p99;
console.log(`\ntarget (errand >= 0.8 x bare throughput, p99 <= 1.5 x bare p99): ${pass ? "met" : "NOT met"}`);
