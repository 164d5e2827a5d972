import * as z from "zod";
import { say } from "../config/problem-codec.js";
import { commandFrom } from "../config/resolve-from.js";
import { errorFor, section, show, text, whole, withDefaults } from "../config/schema/kit.js";
import { collectSecretKeys, type SecretReference } from "../secrets/collect-secret-keys.js";
import { secretNameProblem } from "../secrets/secret-name.js";
import { channelLabels } from "./channel-labels.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const NAME_FIX = "use letters, digits, '.', '_' and '-' (at most 63), e.g. chat_a or team-alerts";

/** Problems of the `*_secret` keys at any depth of a channel's `config`. */
function checkSecretKeys(value: unknown, path: PropertyKey[], ctx: z.RefinementCtx): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkSecretKeys(item, [...path, i], ctx));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, inner] of Object.entries(value)) {
    if (!key.endsWith("_secret")) {
      checkSecretKeys(inner, [...path, key], ctx);
      continue;
    }
    const problem =
      typeof inner === "string"
        ? secretNameProblem(inner)
        : {
            message: `must be the name of a secret, got ${show(inner)}`,
            fix: "write the secret's name, e.g. chat-a-token (keys ending in _secret name secrets)",
          };
    if (problem !== undefined)
      ctx.addIssue({ code: "custom", path: [...path, key], input: inner, message: say(problem.message, problem.fix) });
  }
}

const channelConfig = z
  .record(z.string(), z.unknown(), {
    error: errorFor(() => "must be a mapping", "write config: with the channel's keys below it"),
  })
  .superRefine((config, ctx) => checkSecretKeys(config, [], ctx))
  .meta({
    description:
      "The channel's own settings, handed over in the Handshake. Keys ending in `_secret` name secrets; the controller resolves them at start and hands the values over.",
    patternProperties: { _secret$: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$" } },
  });

const channel = section(
  {
    backend: text({ pattern: NAME, fix: NAME_FIX }).meta({
      description:
        "The channel: a built-in (`chat_a`, `chat_b`), an installed plugin's channel name, or the name a `command` plugin reports.",
    }),
    name: text({ pattern: NAME, fix: NAME_FIX }).optional().meta({
      description:
        "Label in logs and metrics. Default: the backend; a repeated backend gets `backend#2`, `backend#3`, ... in file order.",
    }),
    command: z
      .array(text(), {
        error: errorFor(
          (input) => `must be a list of strings, got ${show(input)}`,
          "write the executable and its arguments, e.g. [node, ./my-channel.js]",
        ),
      })
      .min(1, {
        error: say("is an empty list", "write the executable and its arguments, e.g. [node, ./my-channel.js]"),
      })
      .optional()
      .meta({ description: "An explicit plugin executable and its arguments (any language)." }),
    config: channelConfig.nullish().transform((v) => v ?? {}),
  },
  { fix: "write each channel as a mapping with backend: and config:" },
);

/** The `notifications` section: chat channels and how they are called. */
export const notificationsSchema = section({
  channels: z
    .array(channel, {
      error: errorFor(
        () => "must be a list of channels",
        "write channels: with one '- backend: ...' entry per channel",
      ),
    })
    .default([])
    .superRefine((entries, ctx) => {
      for (const [first, later] of channelLabels(entries).clashes) {
        const named = entries[later]?.name !== undefined;
        ctx.addIssue({
          code: "custom",
          path: [later, named ? "name" : "backend"],
          input: entries[later],
          message: say(
            `gives the label ${JSON.stringify(channelLabels(entries).labels[later])}, which notifications.channels[${first}] already has`,
            `give notifications.channels[${first}] and notifications.channels[${later}] different names`,
          ),
        });
      }
    })
    .meta({ description: "Chat channels; every channel receives every event (docs/notifications.md)." }),
  call_timeout_ms: whole(100, 5000, 5000).default(5000).meta({
    description: "Bound of each notification call, in ms (at most 5 s). A call that takes longer counts as failed.",
  }),
  unhealthy_after: whole(1, 1000, 3)
    .default(3)
    .meta({ description: "Consecutive failures after which a channel is marked unhealthy." }),
  probe_interval_ms: whole(1000, 3_600_000, 30_000).default(30_000).meta({
    description:
      "Mean time between health checks of an unhealthy plugin channel, in ms (±25 % jitter); a check that answers SERVING marks it healthy again.",
  }),
  progress_per_minute: whole(0, 60, 6).default(6).meta({
    description:
      "Progress messages per run: a run may send this many at once, then one more every 60 / progress_per_minute seconds; the latest of those held back goes when one is allowed (0: none).",
  }),
}).meta({ description: "Notification channels (docs/notifications.md)." });

/** `notifications` with defaults. */
export const notificationsSection = withDefaults(notificationsSchema);

/** The secret names under the `*_secret` keys of a channel's `config`, each once. */
function secretNames(config: Record<string, unknown>): string[] {
  const refs: SecretReference[] = [];
  collectSecretKeys(config, "config", refs);
  return [...new Set(refs.map((r) => r.name))];
}

/**
 * `notifications`, resolved: each channel with its label and the names of its
 * secrets (their values are not here), a relative `command` executable made
 * absolute against `baseDir` (the config file's folder), and times in ms.
 */
export const notificationsConfig = (baseDir: string) =>
  notificationsSchema.transform((n) => {
    const { labels } = channelLabels(n.channels);
    return {
      channels: n.channels.map((entry, index) => ({
        /** Stable label for logs and metrics: `name` when given, else backend, then backend#2, ... in file order. */
        label: labels[index] as string,
        /** `backend`: a built-in (`chat_a`, `chat_b`), an installed plugin's `errand.channel` name, or the name a `command` plugin reports. */
        backend: entry.backend,
        /** `command`: an explicit plugin executable and arguments (any language). */
        command: entry.command && commandFrom(baseDir, entry.command),
        /** The channel's `config` object, handed over in the Handshake. */
        config: entry.config,
        /** Secret names found under `*_secret` keys of `config`, resolved at start and handed over in the Handshake. */
        secretNames: secretNames(entry.config),
        /** Index in `notifications.channels`, for error messages. */
        index,
      })),
      /** Bound of each call, ms (at most 5 s: docs/notifications.md). */
      callTimeoutMs: n.call_timeout_ms,
      /** Consecutive failures after which a channel is marked unhealthy. */
      unhealthyAfter: n.unhealthy_after,
      /** Mean time between health checks of an unhealthy plugin channel, ms. */
      probeIntervalMs: n.probe_interval_ms,
      /** Progress messages per run per minute at most. */
      progressPerMinute: n.progress_per_minute,
    };
  });

/** `notifications`, resolved. */
export type NotificationsConfig = z.output<ReturnType<typeof notificationsConfig>>;
/** `notifications.channels[]`, resolved (secret values are not here: see `secretNames`). */
export type ChannelEntryConfig = NotificationsConfig["channels"][number];
