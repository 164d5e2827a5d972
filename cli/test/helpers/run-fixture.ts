import { fileURLToPath } from "node:url";
import type { CheckResult } from "../../src/conformance/check.js";
import { loadConformanceConfig } from "../../src/conformance/config.js";
import { targetFromCommand } from "../../src/conformance/plugin-target.js";
import { runConformance } from "../../src/conformance/runner.js";

export const fixturesDir = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** Runs the conformance checks (or some) against a fixture plugin, in-process. */
export async function runFixture(
  file: string,
  options: { only?: string[]; startTimeoutMs?: number } = {},
): Promise<Map<string, CheckResult>> {
  const conformance = await loadConformanceConfig(`${fixturesDir}conformance.json`);
  const target = targetFromCommand([process.execPath, `${fixturesDir}${file}`]);
  const results = await runConformance(
    { target, conformance, startTimeoutMs: options.startTimeoutMs ?? 10_000 },
    { only: options.only, concurrency: 3 },
  );
  return new Map(results.map((r) => [r.id, r]));
}

/** Ids of the checks with `status`. */
export function idsWith(results: Map<string, CheckResult>, status: CheckResult["status"]): string[] {
  return [...results.values()]
    .filter((r) => r.status === status)
    .map((r) => r.id)
    .sort();
}
