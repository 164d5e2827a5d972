import { truncate } from "@errand/channel-sdk/helpers";
import { SLACK_LIMITS } from "./limits.js";

/** A Block Kit text object. */
export interface TextObject {
  type: "plain_text" | "mrkdwn";
  text: string;
  emoji?: boolean;
}

/** The blocks this channel sends. */
export type Block =
  | { type: "header"; text: TextObject & { type: "plain_text" } }
  | { type: "section"; text: TextObject; fields?: undefined }
  | { type: "section"; text?: undefined; fields: TextObject[] }
  | { type: "context"; elements: TextObject[] }
  | { type: "divider" };

/** A `chat.postMessage` body without the channel. */
export interface ChatAMessage {
  /** Plain-text fallback for notifications and screen readers (mrkdwn, escaped). */
  text: string;
  blocks: Block[];
}

/** A header block; `text` is plain text, cut to 150 characters. */
export function header(text: string): Block {
  const plain = truncate(text.replace(/\s+/g, " ").trim(), SLACK_LIMITS.headerText) || " ";
  return { type: "header", text: { type: "plain_text", text: plain, emoji: true } };
}

/** A section with already-escaped mrkdwn, cut to 3000 characters as a last resort. */
export function section(mrkdwn: string): Block {
  return { type: "section", text: { type: "mrkdwn", text: cutMrkdwn(mrkdwn, SLACK_LIMITS.sectionText) || " " } };
}

/** A section of two-column fields (already-escaped mrkdwn); at most 10, each cut to 2000. */
export function fields(items: string[]): Block {
  return {
    type: "section",
    fields: items
      .slice(0, SLACK_LIMITS.sectionFields)
      .map((text) => ({ type: "mrkdwn" as const, text: cutMrkdwn(text, SLACK_LIMITS.sectionFieldText) || " " })),
  };
}

/** A context block of already-escaped mrkdwn elements; at most 10. */
export function context(items: string[]): Block {
  return {
    type: "context",
    elements: items
      .slice(0, SLACK_LIMITS.contextElements)
      .map((text) => ({ type: "mrkdwn" as const, text: cutMrkdwn(text, SLACK_LIMITS.textObject) || " " })),
  };
}

/**
 * Sections holding `lines` (already-escaped mrkdwn, each meant to fit one
 * section) in order, as few as possible, never splitting a line: a line
 * carries a link, and a link split between two sections is broken in both.
 */
export function sectionsOfLines(lines: string[]): Block[] {
  const out: Block[] = [];
  let current = "";
  for (const line of lines) {
    if (current !== "" && current.length + 1 + line.length > SLACK_LIMITS.sectionText) {
      out.push(section(current));
      current = "";
    }
    current = current === "" ? line : `${current}\n${line}`;
  }
  if (current !== "") out.push(section(current));
  return out;
}

/**
 * Already-escaped mrkdwn cut to at most `limit` characters with "…", as a
 * last resort: the renderers keep inside the limits, so this only guards a
 * future mistake. The cut falls between grapheme clusters and never inside an
 * entity such as `&amp;` or a `<…>` link or mention, which would leave
 * markup the platform shows as garbage (or a link to a cut URL).
 */
export function cutMrkdwn(mrkdwn: string, limit: number): string {
  if (mrkdwn.length <= limit) return mrkdwn;
  const cut = truncate(mrkdwn, limit);
  let end = cut.endsWith("…") ? cut.length - 1 : cut.length;
  const amp = mrkdwn.lastIndexOf("&", end - 1);
  if (amp >= 0) {
    const entity = /^&(?:amp|lt|gt);/.exec(mrkdwn.slice(amp, amp + "&amp;".length))?.[0] ?? "";
    if (amp + Math.max(entity.length, 1) > end) end = amp;
  }
  // Escaped text has no raw `<`, so every one opens markup this channel built.
  const open = mrkdwn.lastIndexOf("<", end - 1);
  if (open >= 0) {
    const close = mrkdwn.indexOf(">", open);
    if (close < 0 || close >= end) end = open;
  }
  return end < cut.length ? `${mrkdwn.slice(0, end)}…` : cut;
}

/**
 * Splits already-escaped mrkdwn into sections of at most 3000 characters,
 * preferring line breaks, then spaces, never inside an `&…;` entity.
 */
export function sections(mrkdwn: string): Block[] {
  const out: Block[] = [];
  let rest = mrkdwn;
  while (rest.length > SLACK_LIMITS.sectionText) {
    const window = rest.slice(0, SLACK_LIMITS.sectionText);
    let cut = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    if (cut < SLACK_LIMITS.sectionText / 2) cut = safeCut(window);
    out.push(section(rest.slice(0, cut)));
    rest = rest.slice(cut).replace(/^[\n ]/, "");
  }
  if (rest.trim() !== "") out.push(section(rest));
  return out;
}

// A cut at the window's end that splits neither an entity nor a surrogate pair.
function safeCut(window: string): number {
  let cut = window.length;
  const amp = window.lastIndexOf("&");
  if (amp >= 0 && amp > window.length - 6 && !window.slice(amp).includes(";")) cut = amp;
  const code = window.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/** Characters of text in the blocks, as the platform's total limit counts them. */
export function blocksTextLength(blocks: Block[]): number {
  let total = 0;
  for (const block of blocks) {
    if (block.type === "header" || (block.type === "section" && block.text)) total += block.text.text.length;
    if (block.type === "section" && block.fields) for (const f of block.fields) total += f.text.length;
    if (block.type === "context") for (const e of block.elements) total += e.text.length;
  }
  return total;
}
