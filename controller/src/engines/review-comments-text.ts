import type { FollowUpContext } from "../runs/follow-up.js";

/** One line per comment, `- author on path line N: body`; a body's further lines indented under it. */
export function reviewCommentsText(followUp: FollowUpContext): string {
  return followUp.comments
    .map((c) => {
      const where = c.path === undefined ? "" : ` on ${c.path}${c.line === undefined ? "" : ` line ${c.line}`}`;
      const body = c.body.trim().replaceAll("\n", "\n  ");
      return `- ${c.author || "a reviewer"}${where}: ${body}`;
    })
    .join("\n");
}
