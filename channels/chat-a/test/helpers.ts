import { type Channel, loadChannel } from "@errand/channel-sdk/host";
import { captureLogger } from "@errand/channel-sdk/testing";
import { chatA } from "../src/index.js";
import type { FakeSlack } from "./fake-slack.js";

export const TOKEN = "xoxb-test-token";
export const SECRETS = { "chat-a-token": TOKEN };

/** The chat_a channel in-process, pointed at the fake, with a capturing logger. */
export async function loadChatA(
  fake: FakeSlack,
  config: Record<string, unknown> = {},
  secrets: Record<string, string> = SECRETS,
) {
  const logger = captureLogger({ secrets: Object.values(secrets) });
  const channel: Channel = await loadChannel(chatA, {
    config: { channel_id: "C0000000001", token_secret: "chat-a-token", api_base_url: fake.apiBaseUrl, ...config },
    secrets,
    logger,
  });
  return { channel, logger };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; hint?: string; retryAfterMs?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; hint?: string };
  }
  throw new Error("expected a rejection");
}
