import type { CodehostAClient } from "./codehost-a-client.js";
import { isRequestError } from "./codehost-a-error.js";
import type { ListedIssue } from "./codehost-a-rules.js";

/** One page as last seen: its ETag, its issues and the address of the next page. */
interface CachedPage {
  etag: string;
  issues: ListedIssue[];
  next: string | undefined;
}

/** Lists a repository's open issues that carry every trigger label, every page, conditionally. */
export interface IssuePages {
  list(signal: AbortSignal): Promise<ListedIssue[]>;
}

/** Where the list starts; the code host's Link header gives the rest. */
export interface IssueQuery {
  owner: string;
  repo: string;
  /** Trigger labels: the code host returns only issues that carry all of them. */
  labels: readonly string[];
}

const FIRST = "GET /repos/{owner}/{repo}/issues";

/**
 * Each page is requested with `If-None-Match` and the ETag it last had; a
 * 304 answer costs nothing against the quota and the page seen last time is
 * reused. So an idle poll (nothing changed) costs no quota however many
 * pages the list has. Pages are followed through the Link header's `next`.
 */
export function createIssuePages(client: CodehostAClient, query: IssueQuery): IssuePages {
  const cache = new Map<string, CachedPage>();
  // The filter is comma-separated: a label with a comma in its name is left to the rules.
  const serverSide = query.labels.filter((l) => !l.includes(","));
  const params = {
    owner: query.owner,
    repo: query.repo,
    state: "open" as const,
    per_page: 100,
    ...(serverSide.length > 0 ? { labels: serverSide.join(",") } : {}),
  };

  const fetchPage = async (key: string, signal: AbortSignal): Promise<CachedPage> => {
    const cached = cache.get(key);
    const headers = cached === undefined ? {} : { "if-none-match": cached.etag };
    try {
      const response =
        key === FIRST
          ? await client.request(FIRST, { ...params, headers, request: { signal } })
          : await client.request({ method: "GET", url: key, headers, request: { signal } });
      const page: CachedPage = {
        etag: String(response.headers.etag ?? ""),
        issues: response.data as ListedIssue[],
        next: nextLink(response.headers.link),
      };
      if (page.etag === "") cache.delete(key);
      else cache.set(key, page);
      return page;
    } catch (error) {
      if (cached !== undefined && isRequestError(error) && error.status === 304) return cached;
      throw error;
    }
  };

  return {
    async list(signal) {
      const issues: ListedIssue[] = [];
      const seen = new Set<string>();
      for (let key: string | undefined = FIRST; key !== undefined; ) {
        // A Link header that points back to a page already read would loop for ever.
        if (seen.has(key)) break;
        seen.add(key);
        const page = await fetchPage(key, signal);
        issues.push(...page.issues);
        key = page.next;
      }
      for (const key of cache.keys()) if (!seen.has(key)) cache.delete(key);
      return issues;
    },
  };
}

/** The `rel="next"` address of a Link header. */
function nextLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}
