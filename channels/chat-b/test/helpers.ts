import { type Channel, loadChannel } from "@errand/channel-sdk/host";
import { captureLogger } from "@errand/channel-sdk/testing";
import { chatB } from "../src/index.js";
import type { FakeDiscord } from "./fake-discord.js";

/** The chat_b channel in-process, pointed at one of the fake's webhooks. */
export async function loadChatB(fake: FakeDiscord, config: Record<string, unknown> = {}, url = fake.webhookUrl("111")) {
  const secrets = { "chat-b-webhook": url };
  const logger = captureLogger({ secrets: [url] });
  const channel: Channel = await loadChannel(chatB, {
    config: { webhook_url_secret: "chat-b-webhook", ...config },
    secrets,
    logger,
  });
  return { channel, logger, url };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; hint?: string; retryAfterMs?: number; cause?: unknown; stack?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; hint?: string };
  }
  throw new Error("expected a rejection");
}
