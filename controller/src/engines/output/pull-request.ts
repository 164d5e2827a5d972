/** Most characters of an agent's final text kept as the run's summary. */
export const MAX_SUMMARY_CHARS = 16_000;

/** A line `PR: <url>` (the prompt asks the agent to end with one), tolerating markdown emphasis and angle brackets. */
const PR_LINE = /^[\s>*_`-]*PR[*_`]*\s*:\s*[*_`]*\s*<?(https?:\/\/[^\s<>`*]+)>?[*_`.,;:!?)]*\s*$/i;
/** Pull or merge request URLs of the usual code hosts (`/pull/12`, `/-/merge_requests/12`, `/pull-requests/12`). */
const PR_URL = /https?:\/\/[^\s<>()"'`[\]]+?\/(?:pull|pulls|merge_requests|pull-requests)\/\d+/g;

/** What an agent's final text says: its pull request URL ("" when none) and the text without the `PR:` line. */
export interface PullRequestReport {
  url: string;
  summary: string;
}

/**
 * Reads the pull request link from an agent's final text: the last
 * `PR: <url>` line, else the last pull/merge request URL anywhere in it.
 */
export function readPullRequest(text: string): PullRequestReport {
  const lines = text.split(/\r?\n/);
  let url = "";
  let prLine = -1;
  lines.forEach((line, index) => {
    const match = PR_LINE.exec(line);
    if (match?.[1] !== undefined) {
      url = trimUrl(match[1]);
      prLine = index;
    }
  });
  if (url === "") url = [...text.matchAll(PR_URL)].at(-1)?.[0] ?? "";
  const kept = prLine === -1 ? lines : lines.filter((_, index) => index !== prLine);
  return { url, summary: capSummary(kept.join("\n").trim()) };
}

/** `text` cut to {@link MAX_SUMMARY_CHARS}. */
export function capSummary(text: string): string {
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS)}…` : text;
}

// Sentence punctuation after a link is not part of it ("see PR: https://x/pull/1.").
function trimUrl(url: string): string {
  return url.replace(/[.,;:!?)\]'"]+$/, "");
}
