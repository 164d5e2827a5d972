// The two load generators: autocannon (npm, runs inside this process) and
// wrk (Debian, a separate C process; lighter, so it loads the server harder).
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { body, PATH, signature } from "./fixture.mjs";

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
let seq = 0;

/** autocannon, in this process; a unique delivery id per request. */
export async function autocannonLoad(port, seconds, rate = 0) {
  const run = seq++;
  let n = 0;
  // This process does nothing else meanwhile, so its CPU time is the generator's.
  const cpuBefore = process.cpuUsage();
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate > 0 ? { overallRate: rate } : {}),
    requests: [
      {
        method: "POST",
        path: PATH,
        setupRequest: (req) => ({
          ...req,
          body,
          headers: {
            "content-type": "application/json",
            "x-github-event": "issues",
            "x-github-delivery": `ac-${process.pid}-${run}-${n++}`,
            "x-hub-signature-256": signature,
          },
        }),
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  const total = r.requests.total;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    generatorCpuUs: (cpu.user + cpu.system) / total,
  };
}

/** True when Debian's `wrk` is on the PATH. */
export function hasWrk() {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its banner.
    return error.status === 1;
  }
}

let script;
function wrkScript() {
  if (script) return script;
  const dir = mkdtempSync(join(tmpdir(), "errand-bench-"));
  writeFileSync(join(dir, "body.json"), body);
  script = join(dir, "post.lua");
  writeFileSync(
    script,
    `local f = io.open("${join(dir, "body.json")}", "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-GitHub-Event"] = "issues"
wrk.headers["X-Hub-Signature-256"] = "${signature}"
local prefix, n = "", 0
init = function(args) prefix = args[1] end
request = function()
  n = n + 1
  wrk.headers["X-GitHub-Delivery"] = prefix .. "-" .. n
  return wrk.format()
end
`,
  );
  return script;
}

// "1.23ms", "850.00us", "1.01s" as milliseconds.
function ms(text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === "us" ? 1e-3 : m[2] === "s" ? 1e3 : 1);
}

// "0m1.230s" as microseconds.
function shellTimeUs(text) {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? (Number(m[1]) * 60 + Number(m[2])) * 1e6 : Number.NaN;
}

/**
 * wrk, one thread, as a separate process; a unique delivery id per request.
 * Run under `sh`, whose `times` then prints wrk's own CPU time (the shell's
 * children), which a finished process no longer shows in /proc.
 */
export function wrkLoad(port, seconds) {
  const prefix = `wrk-${process.pid}-${seq++}`;
  const args = [
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    "--latency",
    "-s",
    wrkScript(),
    `http://127.0.0.1:${port}${PATH}`,
    "--",
    prefix,
  ];
  return new Promise((resolve, reject) => {
    execFile("sh", ["-c", 'wrk "$@" && times', "sh", ...args], (error, stdout) => {
      if (error) return reject(error);
      const pick = (re) => re.exec(stdout)?.[1];
      const total = Number(pick(/(\d+) requests in/));
      const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      // `times`: the shell's user and system time, then its children's.
      const children = /\n(\S+) (\S+)\s*$/.exec(stdout.trimEnd());
      resolve({
        rps: Number(pick(/Requests\/sec:\s+([\d.]+)/)),
        p50: ms(pick(/\s50%\s+(\S+)/)),
        p99: ms(pick(/\s99%\s+(\S+)/)),
        total,
        non2xx: Number(pick(/Non-2xx or 3xx responses: (\d+)/) ?? 0),
        errors: errs ? errs.slice(1).reduce((a, v) => a + Number(v), 0) : 0,
        generatorCpuUs: children ? (shellTimeUs(children[1]) + shellTimeUs(children[2])) / total : Number.NaN,
      });
    });
  });
}
