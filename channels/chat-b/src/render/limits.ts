/**
 * Limits of a chat B (Discord-style) webhook message, from the platform's
 * embed limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
 * and execute-webhook docs (https://discord.com/developers/docs/resources/webhook#execute-webhook).
 * Lengths are counted in UTF-16 code units, never fewer than the platform's characters.
 */
export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  /** Title, description, field names and values, footer text and author name of all embeds together. */
  total: 6000,
  username: 80,
} as const;

/** What this channel renders to, inside the limits. */
export const BUDGET = {
  label: 150,
  description: 3500,
  reason: 1500,
  summaryField: 1024,
  total: 5900,
  url: 2000,
  labels: 300,
} as const;

/** Embed colours: success, failure, start, and plain messages. */
export const COLORS = {
  success: 0x2eb67d,
  failure: 0xe01e5a,
  start: 0x3b82f6,
  info: 0x95a5a6,
} as const;
