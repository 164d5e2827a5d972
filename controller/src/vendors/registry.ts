/**
 * Every vendor the controller talks to, each listed once: its neutral id, its
 * name in user-facing text and, when it sends webhooks, its route and the
 * vendor name accepted beside the id (as a route and as a
 * `webhook.secrets.<name>` key). The source ids, routes, aliases and hints
 * of the webhook server are derived from this list; a vendor's code lives in
 * its folder (vendors/<id>/), its webhook parser is listed in
 * webhook-parsers.ts and its poller in poll-backends.ts.
 *
 * Plain data without imports, so that the configuration can read it without
 * loading any vendor's code.
 */
export const VENDORS = [
  {
    id: "codehost_a",
    name: "code host A",
    webhook: {
      route: "codehost-a",
      alias: "github",
      enableHint: "set webhook.secrets.codehost_a (or webhook.secrets.github)",
    },
  },
  {
    id: "codehost_b",
    name: "code host B",
    webhook: {
      route: "codehost-b",
      alias: "gitlab",
      enableHint: "set webhook.secrets.codehost_b (or webhook.secrets.gitlab)",
    },
  },
  { id: "tracker_a", name: "tracker A" },
  {
    id: "tracker_b",
    name: "tracker B",
    webhook: {
      route: "tracker",
      alias: "shortcut",
      enableHint:
        "set webhook.secrets.tracker_b (or webhook.secrets.shortcut), or webhook.tracker_b.allow_unsigned: true to take unsigned requests",
    },
  },
  {
    id: "chat_a",
    name: "chat A",
    webhook: { route: "chat", alias: "slack", enableHint: "set webhook.secrets.chat_a (or webhook.secrets.slack)" },
  },
  // No alias: the generic source's secret lives in its own section, webhook.generic.
  {
    id: "generic",
    name: "generic",
    webhook: { route: "generic", enableHint: "set webhook.generic (auth_mode, secret and optionally field_mapping)" },
  },
] as const;

/** A vendor that sends webhooks. */
export type WebhookVendor = Extract<(typeof VENDORS)[number], { webhook: object }>;

/** The vendors that send webhooks, in route-table order. */
export const WEBHOOK_VENDORS: readonly WebhookVendor[] = VENDORS.filter((v): v is WebhookVendor => "webhook" in v);
