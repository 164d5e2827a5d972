import type { Embed } from "./embed.js";
import { cutMarkdown } from "./escape.js";
import { DISCORD_LIMITS } from "./limits.js";

/** The JSON body of an execute-webhook request. */
export interface ChatBMessage {
  /** Plain text above the embeds (a digest's summary); at most 2000 characters. */
  content?: string;
  username?: string;
  avatar_url?: string;
  embeds: Embed[];
  /** No pings, whatever the text says (@everyone, <@id>, roles). */
  allowed_mentions: { parse: [] };
}

/** Characters the platform counts toward the 6000 of all embeds. */
export function embedsLength(embeds: Embed[]): number {
  let total = 0;
  for (const embed of embeds) {
    total += embed.title.length + (embed.description?.length ?? 0) + (embed.footer?.text.length ?? 0);
    for (const f of embed.fields ?? []) total += f.name.length + f.value.length;
  }
  return total;
}

/**
 * The last guard before sending: at most 10 embeds and 25 fields each, and
 * all embeds within `budget` characters, taken first from the description,
 * then from the longest field values. Renderers already stay inside.
 */
export function fitEmbeds(embeds: Embed[], budget: number = DISCORD_LIMITS.total): Embed[] {
  const out = embeds
    .slice(0, DISCORD_LIMITS.embeds)
    .map((e) => ({ ...e, fields: e.fields?.slice(0, DISCORD_LIMITS.fields) }));
  const over = () => embedsLength(out) - budget;
  for (const embed of out) {
    if (over() <= 0) break;
    if (embed.description) {
      const keep = embed.description.length - over();
      embed.description = keep > 1 ? cutMarkdown(embed.description, keep) : undefined;
    }
  }
  for (const embed of out) {
    for (const f of [...(embed.fields ?? [])].sort((a, b) => b.value.length - a.value.length)) {
      if (over() <= 0) break;
      f.value = cutMarkdown(f.value, Math.max(1, f.value.length - over()));
    }
  }
  return out.map(({ fields, ...rest }) => (fields && fields.length > 0 ? { ...rest, fields } : rest));
}
