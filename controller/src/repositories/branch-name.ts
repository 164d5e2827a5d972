/** What a branch name is made from. */
export interface BranchNameParts {
  ticketId: string;
  title: string;
  runId: string;
}

/** A slug longer than this is cut at a word boundary: branch names stay readable in a list. */
const MAX_SLUG = 40;
/** Git and code hosts take longer names, but a termination message or a URL should not have to. */
const MAX_BRANCH = 200;

/**
 * The branch a run works on, from `repositories.checkout.branch_template`:
 * `{ticket_id}`, `{slug}` and `{run_id}` are replaced, then whatever git's
 * ref rules refuse (spaces, `..`, `~^:?*[\`, a trailing `.lock` or `/`)
 * becomes `-`. Pure: the same parts always give the same name.
 */
export function branchName(template: string, parts: BranchNameParts): string {
  const name = template
    .replaceAll("{ticket_id}", safePart(parts.ticketId))
    .replaceAll("{slug}", slugOf(parts.title))
    .replaceAll("{run_id}", safePart(parts.runId));
  const cleaned = name
    .replace(/[^A-Za-z0-9._/-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/\/{2,}/g, "/")
    .split("/")
    .map((segment) =>
      segment
        .replace(/^[.-]+/, "")
        .replace(/(\.lock)+$/i, "")
        .replace(/\.+$/, ""),
    )
    .filter((segment) => segment !== "")
    .join("/")
    .slice(0, MAX_BRANCH)
    .replace(/[./-]+$/, "");
  return cleaned === "" ? `errand/${safePart(parts.runId)}` : cleaned;
}

/** The title in lower-case words joined by `-`, at most {@link MAX_SLUG} characters; `ticket` when none is left. */
export function slugOf(title: string): string {
  const words = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug === "" ? (words[0]?.slice(0, MAX_SLUG) ?? "ticket") : slug;
}

function safePart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The branch a run works on: a new one made from the default branch, or one that exists (a follow-up's). */
export interface RunBranch {
  branch: string;
  /** True to check out `branch` as it is on the remote rather than create it. */
  existing: boolean;
}

/** The branch of a new run: a fresh one named by the template. Follow-ups pass `{ branch, existing: true }` instead. */
export function newRunBranch(template: string, parts: BranchNameParts): RunBranch {
  return { branch: branchName(template, parts), existing: false };
}
