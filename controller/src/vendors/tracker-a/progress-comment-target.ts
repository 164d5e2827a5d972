import { randomUUID } from "node:crypto";
import type { CommentTarget } from "../../sources/progress-comment/progress-comment-observer.js";
import type { LinearApi } from "./linear-api.js";
import { TrackerAError } from "./tracker-a-error.js";

/**
 * Tracker A's comments for the progress comment: `commentCreate` with an id
 * chosen here, then `commentUpdate` of that id. Only tracker A's own tickets
 * (the issue id is the ticket id).
 */
export function createTrackerACommentTarget(api: LinearApi): CommentTarget {
  return {
    name: "tracker_a",
    editable: true,
    html: false,
    accepts: (ticket) => ticket.source === "tracker_a" && ticket.id !== "",
    async create(ticket, body, signal) {
      const id = randomUUID();
      confirm(await api.sdk(signal).createComment({ id, issueId: ticket.id, body }), "create the progress comment");
      return id;
    },
    async update(_ticket, id, body, signal) {
      confirm(await api.sdk(signal).updateComment(id, { body }), "edit the progress comment");
    },
  };
}

function confirm(payload: { success: boolean }, what: string): void {
  if (!payload.success)
    throw new TrackerAError("rejected", `tracker_a answered success: false to the request to ${what}`, {
      hint: "check that the issue exists and the token may comment on it",
    });
}
