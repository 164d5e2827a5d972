import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A starting point the scaffolder offers. */
export interface TemplateKind {
  id: string;
  title: string;
  /** Indented YAML of the `config:` block in the generated README. */
  configYaml: string;
  secretsNote: string;
}

/** The templates, in the order the prompt lists them. */
export const TEMPLATES: TemplateKind[] = [
  {
    id: "webhook",
    title: "a chat service reached by an incoming-webhook URL",
    configYaml: "        webhook_url_secret: my-chat-webhook   # name of the secret holding the URL",
    secretsNote:
      "Secrets are never written in the config: `webhook_url_secret` names a secret in the controller's secret store; the controller resolves it and hands the URL to the plugin in its Handshake. The plugin never logs it.",
  },
  {
    id: "bot-api",
    title: "a chat service reached by a bot token and a web API",
    configYaml: [
      "        channel_id: C0123456789             # the target channel's id, not its name",
      "        token_secret: my-chat-bot-token     # name of the secret holding the bot token",
      "        # api_base_url: https://chat.example.com/api",
    ].join("\n"),
    secretsNote:
      "Secrets are never written in the config: `token_secret` names a secret in the controller's secret store; the controller resolves it and hands the token to the plugin in its Handshake. The bot needs permission to post (for example the `chat:write` scope) and must be invited to the channel.",
  },
  {
    id: "blank",
    title: "a blank channel (handlers that log; you write the rest)",
    configYaml: '        prefix: "[errand]"',
    secretsNote:
      "When your channel needs a credential, take the *name* of a secret in its config (for example `token_secret`) and read the value from the secrets the controller sends in the Handshake; never put the value in the config.",
  },
];

/** The template ids. */
export const TEMPLATE_IDS = TEMPLATES.map((t) => t.id);

/**
 * The templates folder: packed beside dist/ in a published CLI, or the
 * repository's templates/ when run from the monorepo.
 */
export function templatesRoot(): string {
  for (const candidate of ["../../templates/", "../../../templates/"]) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${path}common`)) return path;
  }
  throw new Error("create-channel: the templates folder is missing from this installation");
}
