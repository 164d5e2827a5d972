import { Command } from "commander";
import { createWebhookServeCommand } from "./webhook-serve.js";

/** `errand webhook …`: the webhook intake on its own. */
export function createWebhookCommand(): Command {
  return new Command("webhook")
    .description("run and inspect the inbound webhook intake")
    .addCommand(createWebhookServeCommand());
}
