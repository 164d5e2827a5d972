/** The part of chat_a's strict fake platform (channels/chat-a/test/fake-slack.ts) these tests use. */
export interface FakeChatA {
  /** The `api_base_url` to configure. */
  readonly apiBaseUrl: string;
  /** Messages the fake accepted (valid token, channel and Block Kit), in arrival order. */
  readonly accepted: { channel: string; ts: string; text: string; blocks: unknown }[];
  /** Messages changed with chat.update, in arrival order. */
  readonly updates: { channel: string; ts: string; text: string; blocks: unknown }[];
  /** Every request and the answer it got. */
  readonly requests: { status: number; body: unknown; answer: Record<string, unknown> }[];
  /** Plays these answers, one per request, before behaving normally again. */
  script(...answers: { status?: number; error?: string; hang?: boolean; delayMs?: number }[]): void;
  close(): Promise<void>;
}

/** The bot token the fake knows, with the chat:write scope. */
export const FAKE_CHAT_A_TOKEN = "xoxb-test-token";

/**
 * Starts the chat_a package's own fake of the chat platform's web API (as
 * strict as the documented platform: tokens, scopes, channel membership,
 * Block Kit validation) on 127.0.0.1. It is loaded at run time because it
 * lives in another package's tests, outside this package's TypeScript root.
 */
export async function startFakeChatA(): Promise<FakeChatA> {
  const url = new URL("../../../../channels/chat-a/test/fake-slack.ts", import.meta.url);
  const fake = (await import(url.href)) as { startFakeSlack(options: { intervalMs: number }): Promise<FakeChatA> };
  // No platform rate limit here: the channel is configured without its own spacing (min_interval_ms: 0).
  return fake.startFakeSlack({ intervalMs: 0 });
}
