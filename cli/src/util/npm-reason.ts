/**
 * npm's own explanation in its output: the "npm error" lines (or, when there
 * are none, every line), without the pointer to its debug log, joined on one line.
 */
export function npmReason(output: string): string | undefined {
  const all = output
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const errors = all
    .filter((line) => /^npm (error|ERR!)/.test(line))
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, ""));
  const lines = (errors.length > 0 ? errors : all).filter(
    (line) => line && !/complete log of this run|[/\\]_logs[/\\]/i.test(line),
  );
  return lines.length > 0 ? [...new Set(lines)].slice(0, 8).join("; ") : undefined;
}
