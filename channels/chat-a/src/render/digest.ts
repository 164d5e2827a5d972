import { ticketLink, truncate } from "@errand/channel-sdk/helpers";
import type { RoomEvent } from "@errand/chat-kit";
import { type Block, type ChatAMessage, context, header, sectionsOfLines } from "./blocks.js";
import { fallback } from "./common.js";
import { escapeMrkdwn, fitMrkdwn, fitMrkdwnLink, safeUrl } from "./escape.js";
import { fitMessage } from "./fit.js";
import { BUDGET, SLACK_LIMITS } from "./limits.js";

/** What one digest line may show of a ticket's title, a failure's reason and a progress message. */
const DIGEST = { label: 80, reason: 150, progress: 200, engine: 50 } as const;
/** Room for the lines, below the blocks' total budget: the header, the note and the group titles take the rest. */
const LINES_BUDGET = BUDGET.blocksTotalText - 1000;
const NOTE =
  "More notifications came than the platform takes (one message a second per channel), so they are combined here.";

/**
 * One digest message for the first events of `events`, as many as fit in a
 * message (every event gets its own line, so none is left unreported):
 * starts listed with links and engine, completions with their outcome and
 * pull request link (or the failure's reason), progress as the run's latest
 * message. `taken` is how many events it covers.
 */
export function renderDigest(events: readonly RoomEvent[]): { message: ChatAMessage; taken: number } {
  const groups: Record<RoomEvent["kind"], string[]> = { start: [], complete: [], progress: [] };
  let used = 0;
  let taken = 0;
  for (const event of events) {
    const line = digestLine(event);
    if (taken > 0 && used + line.length + 1 > LINES_BUDGET) break;
    groups[event.kind].push(line);
    used += line.length + 1;
    taken++;
  }
  const counts = [
    plural(groups.start.length, "run started", "runs started"),
    plural(groups.complete.length, "run finished", "runs finished"),
    groups.progress.length > 0 ? `progress on ${plural(groups.progress.length, "run", "runs")}` : "",
  ].filter((part) => part !== "");
  const blocks: Block[] = [header(`📋 ${taken} notifications: ${counts.join(", ")}`), context([NOTE])];
  if (groups.start.length > 0)
    blocks.push(
      ...sectionsOfLines([`*:rocket: ${plural(groups.start.length, "run started", "runs started")}*`, ...groups.start]),
    );
  if (groups.complete.length > 0)
    blocks.push(
      ...sectionsOfLines([
        `*:checkered_flag: ${plural(groups.complete.length, "run finished", "runs finished")}*`,
        ...groups.complete,
      ]),
    );
  if (groups.progress.length > 0)
    blocks.push(
      ...sectionsOfLines([
        `*:speech_balloon: Progress on ${plural(groups.progress.length, "run", "runs")}*`,
        ...groups.progress,
      ]),
    );
  return {
    message: fitMessage({
      text: fallback(`${taken} notifications: ${counts.join(", ")}`),
      blocks: blocks.slice(0, SLACK_LIMITS.blocks),
    }),
    taken,
  };
}

function plural(count: number, one: string, many: string): string {
  return count === 0 ? "" : `${count} ${count === 1 ? one : many}`;
}

/** The line of one event: a bullet, the ticket's link, and what happened. */
export function digestLine(event: RoomEvent): string {
  const ticket = ticketLine(event);
  switch (event.kind) {
    case "start": {
      const engine = truncate(event.engine.trim(), DIGEST.engine);
      return `• ${ticket}${engine ? `, using *${escapeMrkdwn(engine)}*` : ""}`;
    }
    case "complete": {
      if (!event.result.success) {
        const reason = event.result.failureReason.replace(/\s+/g, " ").trim() || "no reason was given";
        return `• :x: ${ticket}: ${fitMrkdwn(reason, DIGEST.reason)}`;
      }
      const pr = safeUrl(event.result.pullRequestUrl, BUDGET.url);
      return `• :white_check_mark: ${ticket}${pr ? `: <${escapeMrkdwn(pr)}|pull request>` : ""}`;
    }
    case "progress": {
      const text = event.message.replace(/\s+/g, " ").trim();
      return `• ${ticket}: ${text === "" ? "_(empty message)_" : fitMrkdwn(text, DIGEST.progress)}`;
    }
  }
}

function ticketLine(event: RoomEvent): string {
  const { url, label } = ticketLink(event.ticket, { maxLabelLength: DIGEST.label });
  return (
    fitMrkdwnLink(url, label, BUDGET.url + 2 * DIGEST.label, { maxUrlLength: BUDGET.url })
    ?? fitMrkdwn(label, DIGEST.label)
  );
}
