import { ShortcutClient } from "@shortcut/client";
import type { CommentTarget } from "../../sources/progress-comment/progress-comment-observer.js";

/** Options of {@link createTrackerBCommentTarget}. */
export interface TrackerBCommentOptions {
  token: string;
  /** `ticketing.config.api_base_url`; unset: the vendor's public API. */
  baseUrl: string | undefined;
  timeoutMs: number;
}

/**
 * Tracker B's story comments for the progress comment: `POST
 * /api/v3/stories/{id}/comments`, then
 * `PUT /api/v3/stories/{id}/comments/{comment_id}`. Only tracker B's own
 * tickets (the story number is the ticket id).
 */
export function createTrackerBCommentTarget(options: TrackerBCommentOptions): CommentTarget {
  const client = new ShortcutClient(options.token, {
    // As in tracker-b-api.ts: a base ending in /api/v3 would double the SDK's own prefix.
    ...(options.baseUrl === undefined
      ? {}
      : { baseURL: options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v3$/, "") }),
    timeout: options.timeoutMs,
  });
  return {
    name: "tracker_b",
    editable: true,
    html: false,
    accepts: (ticket) => ticket.source === "tracker_b" && /^[1-9][0-9]*$/.test(ticket.id),
    async create(ticket, body, signal) {
      const { data } = await client.createStoryComment(Number(ticket.id), { text: body }, { signal });
      return String(data.id);
    },
    async update(ticket, id, body, signal) {
      await client.updateStoryComment(Number(ticket.id), Number(id), { text: body }, { signal });
    },
  };
}
