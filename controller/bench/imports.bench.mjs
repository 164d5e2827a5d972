// What a start of `errand run` spends loading code: each module imported
// alone in a fresh Node process (so shared dependencies count in each),
// wall and CPU time, median of BENCH_ROUNDS (5). Explains the restart figure
// of bench:controller, where the store's own part is a few milliseconds.
import { execFileSync } from "node:child_process";
import { median } from "./controller/stats.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const MODULES = [
  ["nothing (node -e 0 equivalent)", "data:text/javascript,"],
  ["@errand/channel-sdk (root: authors, serve)", "@errand/channel-sdk"],
  ["@errand/channel-sdk/host (connectChannel, loadChannel)", "@errand/channel-sdk/host"],
  ["@grpc/grpc-js", "@grpc/grpc-js"],
  ["@errand/channel-chat-a", "@errand/channel-chat-a"],
  ["@errand/channel-chat-b", "@errand/channel-chat-b"],
  ["zod", "zod"],
  ["execa", "execa"],
  ["prom-client", "prom-client"],
  ["yaml", "yaml"],
  ["commander", "commander"],
  ["better-sqlite3", "better-sqlite3"],
  ["dist/cli/program.js (every command's definition)", dist("cli/program.js")],
  ["dist/cli/load-for-cli.js (config, secrets)", dist("cli/load-for-cli.js")],
  ["dist/controller.js (everything errand run needs)", dist("controller.js")],
];
const script = (specifier) =>
  `const c=process.cpuUsage(),t=performance.now();await import(${JSON.stringify(specifier)});const u=process.cpuUsage(c);`
  + `process.stdout.write(JSON.stringify({ms:performance.now()-t,cpu:(u.user+u.system)/1000}))`;

console.log(`\nEach module imported alone in a fresh node (${process.version}); median of ${ROUNDS}.\n`);
console.log("| module | wall ms | CPU ms |\n|---|---:|---:|");
for (const [name, specifier] of MODULES) {
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script(specifier)], {
      cwd: new URL("..", import.meta.url).pathname,
      encoding: "utf8",
    });
    runs.push(JSON.parse(out));
  }
  console.log(
    `| ${name} | ${median(runs.map((r) => r.ms)).toFixed(0)} | ${median(runs.map((r) => r.cpu)).toFixed(0)} |`,
  );
}
