import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { renderCompleteEmbed } from "./complete.js";
import type { Embed, RenderContext } from "./embed.js";
import { BUDGET } from "./limits.js";
import { type ChatBMessage, fitEmbeds } from "./message.js";
import { renderNotifyEmbed } from "./notify.js";
import { renderStartEmbed } from "./start.js";

/** Display overrides of the webhook's name and avatar. */
export interface Identity {
  username?: string | undefined;
  avatarUrl?: string | undefined;
}

/** Wraps one embed into the exact execute-webhook body, within every limit. */
export function toMessage(embed: Embed, identity: Identity = {}): ChatBMessage {
  const message: ChatBMessage = { embeds: fitEmbeds([embed], BUDGET.total), allowed_mentions: { parse: [] } };
  if (identity.username) message.username = identity.username;
  if (identity.avatarUrl) message.avatar_url = identity.avatarUrl;
  return message;
}

/** The NotifyStart body. */
export function renderStart(
  ticket: Ticket,
  engine: string,
  ctx: RenderContext = {},
  identity: Identity = {},
): ChatBMessage {
  return toMessage(renderStartEmbed(ticket, engine, ctx), identity);
}

/** The NotifyComplete body (success or failure). */
export function renderComplete(
  ticket: Ticket,
  result: TaskResult,
  ctx: RenderContext = {},
  identity: Identity = {},
): ChatBMessage {
  return toMessage(renderCompleteEmbed(ticket, result, ctx), identity);
}

/** The Notify body. */
export function renderNotify(
  message: string,
  ticket: Ticket,
  ctx: RenderContext = {},
  identity: Identity = {},
): ChatBMessage {
  return toMessage(renderNotifyEmbed(message, ticket, ctx), identity);
}
