/** The branch a run works on: a new one made from the default branch, or one that exists (a follow-up's). */
export interface RunBranch {
  branch: string;
  /** True to check out `branch` as it is on the remote rather than create it. */
  existing: boolean;
}

/** Longest slug kept in a branch name. */
const SLUG_MAX = 40;

/** The title in lower-case ASCII words joined by `-`, at most {@link SLUG_MAX} characters, never empty. */
export function slugOf(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter((w) => w !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > SLUG_MAX) {
      if (slug === "") slug = word.slice(0, SLUG_MAX);
      break;
    }
    slug = next;
  }
  return slug === "" ? "task" : slug;
}

/**
 * `repositories.checkout.branch_template` filled in: `{ticket_id}`,
 * `{slug}` and `{run_id}` replaced, then made a valid ref name (git's
 * check-ref-format rules: no `..`, `@{`, control characters, spaces,
 * `~^:?*[\`, no component starting with `.` or ending with `.lock`).
 */
export function branchName(template: string, values: { ticketId: string; title: string; runId: string }): string {
  const filled = template
    .replaceAll("{ticket_id}", values.ticketId)
    .replaceAll("{slug}", slugOf(values.title))
    .replaceAll("{run_id}", values.runId);
  const safe = [...filled]
    .map((ch) => (ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f ? "-" : ch))
    .join("")
    .replace(/[~^:?*[\\]+/g, "-")
    .replace(/@\{/g, "-")
    .replace(/\.{2,}/g, ".")
    .split("/")
    .map((part) =>
      part
        .replace(/^\.+/, "")
        .replace(/\.lock$/i, "-lock")
        .replace(/\.+$/, ""),
    )
    .filter((part) => part !== "")
    .join("/");
  return safe === "" || safe === "@" ? `errand/${values.runId}` : safe;
}

/** The branch of a new run: a fresh one named by the template. Follow-ups pass `{ branch, existing: true }` instead. */
export function newRunBranch(template: string, values: { ticketId: string; title: string; runId: string }): RunBranch {
  return { branch: branchName(template, values), existing: false };
}
