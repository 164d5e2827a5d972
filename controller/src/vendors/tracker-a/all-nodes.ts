import type { Connection } from "@linear/sdk";
import { TrackerAError } from "./tracker-a-error.js";

/** Pages a poll follows at most: 100 pages of 50 issues is far past any team's open work. */
export const MAX_PAGES = 100;

/**
 * Every node of a connection, following its cursor page by page with the
 * SDK's own `fetchNext` (first/after). A server that hands back the same
 * cursor, or more than `maxPages` pages, is an error rather than a loop.
 */
export async function allNodes<T>(connection: Connection<T>, what: string, maxPages = MAX_PAGES): Promise<T[]> {
  for (let pages = 1; connection.pageInfo.hasNextPage; pages++) {
    const cursor = connection.pageInfo.endCursor;
    if (pages >= maxPages || cursor === undefined || cursor === null) {
      throw new TrackerAError(
        "rejected",
        `tracker_a returned ${cursor ? `more than ${maxPages} pages of` : "a page without a cursor for"} ${what}`,
        {
          hint: "narrow the poll: add a trigger label (ticketing.config.labels) or a state_filter",
        },
      );
    }
    await connection.fetchNext();
    if (connection.pageInfo.endCursor === cursor && connection.pageInfo.hasNextPage) {
      throw new TrackerAError("rejected", `tracker_a returned the same page cursor twice for ${what}`, {
        hint: "report this to the tracker; the poll is retried",
      });
    }
  }
  return connection.nodes;
}
