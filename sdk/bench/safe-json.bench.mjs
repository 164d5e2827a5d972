// The logger's slow path (safe-json.ts, used only after JSON.stringify threw)
// against safe-stable-stringify 3 configured to match it (insertion order,
// "[Circular]", errors as {name,message,code}, bigints as strings): a record
// with a circular response object, as a channel logs a failed HTTP call.
// Encodings per second, median of BENCH_ROUNDS (7) rounds of 20,000, the two
// alternating. Then what each does with a throwing getter and toJSON.
import { configure } from "safe-stable-stringify";
import { safeJson } from "../dist/safe-json.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const N = 20_000;
const replacer = (_key, value) =>
  value instanceof Error
    ? { name: value.name, message: value.message, ...(value.code === undefined ? {} : { code: value.code }) }
    : typeof value === "bigint"
      ? value.toString()
      : value;
const stringify = configure({ deterministic: false, circularValue: "[Circular]", bigint: false, maximumDepth: 100 });

function record() {
  const res = {
    status: 500,
    headers: { "content-type": "application/json", "retry-after": "1" },
    body: { ok: false, error: "ratelimited" },
    list: [1, 2, 3],
  };
  res.self = res;
  res.request = { url: "https://chat.example/api/chat.postMessage", method: "POST", response: res };
  return {
    channel: "chat_a",
    call: "notify",
    attempt: 2,
    error: Object.assign(new Error("rate limited"), { code: "ERR_RATE_LIMITED" }),
    res,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const value = record();
  const started = performance.now();
  for (let i = 0; i < N; i++) fn(value);
  return N / ((performance.now() - started) / 1000);
};
const runs = { "safe-json.ts (hand-written)": [], "safe-stable-stringify 3": [] };
for (let r = 0; r < ROUNDS; r++) {
  runs["safe-json.ts (hand-written)"].push(time((v) => safeJson(v, "")));
  runs["safe-stable-stringify 3"].push(time((v) => stringify(v, replacer)));
}
console.log(
  `\nA record with a circular response, ${N} encodings a round; median of ${ROUNDS} (node ${process.version})\n`,
);
console.log("| encoder | records/s (median) | min | max |\n|---|---:|---:|---:|");
for (const [name, xs] of Object.entries(runs))
  console.log(
    `| ${name} | ${Math.round(median(xs)).toLocaleString("en")} | ${Math.round(Math.min(...xs)).toLocaleString("en")} | ${Math.round(Math.max(...xs)).toLocaleString("en")} |`,
  );
console.log(`\nsame text: ${safeJson(record(), "") === stringify(record(), replacer)}`);
const hostile = {
  ok: 1,
  get bad() {
    throw new Error("getter boom");
  },
  json: {
    toJSON() {
      throw new TypeError("toJSON boom");
    },
  },
};
for (const [name, fn] of [
  ["safe-json.ts", (v) => safeJson(v, "")],
  ["safe-stable-stringify", (v) => stringify(v, replacer)],
]) {
  try {
    console.log(`${name} on a throwing getter/toJSON: ${fn(hostile)}`);
  } catch (error) {
    console.log(`${name} on a throwing getter/toJSON: throws ${error.name}: ${error.message}`);
  }
}
