import type * as z from "zod";
import type { ConfigProblem } from "./config-error.js";
import { configKey } from "./config-key.js";
import { decodeProblems } from "./problem-codec.js";

/** A problem located by its path in the document (turned into a dotted key and a line later). */
export interface PathProblem {
  path: PropertyKey[];
  message: string;
  fix: string;
}

const DOCS_FIX = "see docs/configuration.md for this key";

/** Turns zod issues into problems; our schemas pack message and fix into each issue (see problem-codec.ts). */
export function issueProblems(issues: readonly z.core.$ZodIssue[], base: PropertyKey[] = []): PathProblem[] {
  const out: PathProblem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    // A bad record key: the key schema's own issue says what is wrong with it.
    const source = issue.code === "invalid_key" && issue.issues[0] !== undefined ? issue.issues[0] : issue;
    const decoded = decodeProblems(source.message);
    if (decoded !== undefined) {
      for (const p of decoded)
        out.push({ path: p.under === undefined ? path : [...path, p.under], message: p.message, fix: p.fix });
    } else if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key], message: "is not a known key", fix: DOCS_FIX });
    } else if (issue.code === "invalid_union" && issue.errors.length > 0 && issue.errors.every((e) => e.length > 0)) {
      // No option fitted and none came closer than the others: say what each would have needed.
      out.push({ path, message: "does not fit any of the accepted forms", fix: DOCS_FIX });
    } else {
      out.push({ path, message: source.message, fix: DOCS_FIX });
    }
  }
  return out;
}

/** Gives a problem its dotted key, and its line when the locator knows the file. */
export type ProblemLocator = (problem: PathProblem) => ConfigProblem;

/** A locator without a file: dotted keys, no lines. */
export const plainLocator: ProblemLocator = (problem) => ({
  key: configKey(problem.path),
  message: problem.message,
  fix: problem.fix,
});

/** Problems in file order (by line; those without a line last), each group in the order found. */
export function inFileOrder(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return problems
    .map((problem, i) => ({ problem, i }))
    .sort(
      (a, b) => (a.problem.line ?? Number.MAX_SAFE_INTEGER) - (b.problem.line ?? Number.MAX_SAFE_INTEGER) || a.i - b.i,
    )
    .map((x) => x.problem);
}
