import { ticketLink, truncate } from "@errand/channel-sdk/helpers";
import type { RoomEvent } from "@errand/chat-kit";
import type { Embed } from "./embed.js";
import { escapeMarkdown, fitMarkdown, fitMarkdownLink, safeUrl } from "./escape.js";
import { BUDGET, COLORS, DISCORD_LIMITS } from "./limits.js";
import { type ChatBMessage, fitEmbeds } from "./message.js";
import type { Identity } from "./payload.js";

/** What one digest line may show of a ticket's title, a failure's reason and a progress message. */
const DIGEST = { label: 80, reason: 150, progress: 200, engine: 50 } as const;
/** Room for the lines in all embeds: the titles take the rest of the 5900 the channel keeps to. */
const LINES_BUDGET = BUDGET.total - 400;
/** One embed's description, below the platform's 4096. */
const DESCRIPTION_BUDGET = 4000;

const GROUPS = [
  { kind: "start", color: COLORS.start, icon: "🚀", what: (n: number) => count(n, "run started", "runs started") },
  {
    kind: "complete",
    color: COLORS.success,
    icon: "🏁",
    what: (n: number) => count(n, "run finished", "runs finished"),
  },
  { kind: "progress", color: COLORS.info, icon: "💬", what: (n: number) => `progress on ${count(n, "run", "runs")}` },
] as const;

/**
 * One digest message for the first events of `events`, as many as fit in a
 * message (every event gets its own line, so none is left unreported): an
 * embed per kind, starts listed with links and engine, completions with their
 * outcome and pull request link (or the failure's reason), progress as the
 * run's latest message. `taken` is how many events it covers.
 */
export function renderDigest(
  events: readonly RoomEvent[],
  identity: Identity = {},
): { message: ChatBMessage; taken: number } {
  const lines: Record<RoomEvent["kind"], string[]> = { start: [], complete: [], progress: [] };
  let used = 0;
  let taken = 0;
  for (const event of events) {
    const line = digestLine(event);
    if (taken > 0 && used + line.length + 1 > LINES_BUDGET) break;
    lines[event.kind].push(line);
    used += line.length + 1;
    taken++;
  }
  const embeds: Embed[] = [];
  const summary: string[] = [];
  for (const group of GROUPS) {
    const groupLines = lines[group.kind];
    if (groupLines.length === 0) continue;
    const what = group.what(groupLines.length);
    summary.push(what);
    const title = `${group.icon} ${what.charAt(0).toUpperCase()}${what.slice(1)}`;
    for (const description of chunks(groupLines)) embeds.push({ title, description, color: group.color });
  }
  const content = `📋 ${taken} notifications: ${summary.join(", ")}. More came than the webhook takes, so they are combined here.`;
  const message: ChatBMessage = {
    content: truncate(content, DISCORD_LIMITS.content),
    embeds: fitEmbeds(embeds.slice(0, DISCORD_LIMITS.embeds), BUDGET.total),
    allowed_mentions: { parse: [] },
  };
  if (identity.username) message.username = identity.username;
  if (identity.avatarUrl) message.avatar_url = identity.avatarUrl;
  return { message, taken };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Lines joined into descriptions of at most {@link DESCRIPTION_BUDGET}, never splitting a line (it carries a link). */
function chunks(lines: string[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const line of lines) {
    if (current !== "" && current.length + 1 + line.length > DESCRIPTION_BUDGET) {
      out.push(current);
      current = "";
    }
    current = current === "" ? line : `${current}\n${line}`;
  }
  if (current !== "") out.push(current);
  return out;
}

/** The line of one event: a bullet, the ticket's link, and what happened. */
export function digestLine(event: RoomEvent): string {
  const ticket = ticketLine(event);
  switch (event.kind) {
    case "start": {
      const engine = truncate(event.engine.trim(), DIGEST.engine);
      return `• ${ticket}${engine ? `, using **${escapeMarkdown(engine)}**` : ""}`;
    }
    case "complete": {
      if (!event.result.success) {
        const reason = event.result.failureReason.replace(/\s+/g, " ").trim() || "no reason was given";
        return `• ❌ ${ticket}: ${fitMarkdown(reason, DIGEST.reason)}`;
      }
      const pr = safeUrl(event.result.pullRequestUrl, BUDGET.url);
      return `• ✅ ${ticket}${pr ? `: [pull request](${pr})` : ""}`;
    }
    case "progress": {
      const text = event.message.replace(/\s+/g, " ").trim();
      return `• ${ticket}: ${text === "" ? "*(empty message)*" : fitMarkdown(text, DIGEST.progress)}`;
    }
  }
}

function ticketLine(event: RoomEvent): string {
  const { url, label } = ticketLink(event.ticket, { maxLabelLength: DIGEST.label });
  return (
    fitMarkdownLink(url, label, BUDGET.url + 2 * DIGEST.label, { maxUrlLength: BUDGET.url })
    ?? fitMarkdown(label, DIGEST.label)
  );
}
