import type { TokenUsage } from "@errand/channel-sdk";
import type { EngineEvent } from "../engine.js";
import { asArray, asCount, asObject, asString } from "../output/json-fields.js";
import { progressText } from "../output/progress-text.js";
import { sumUsage } from "../output/token-usage.js";
import { toolLabel } from "./tool-label.js";

/** What a run's assistant messages said so far: the progress they show, their last text, API error and usage. */
export interface AssistantLog {
  /** The progress and usage events of one `assistant` message. */
  read(message: Record<string, unknown>): EngineEvent[];
  /** The last non-blank text the agent wrote; "" before any. */
  readonly lastText: string;
  /** The last API error an assistant message carried. */
  readonly apiError: string | undefined;
  /** The usage of the messages so far, undefined before any reported one. */
  usage(): TokenUsage | undefined;
}

/** A fresh {@link AssistantLog} for one run. */
export function createAssistantLog(): AssistantLog {
  const usageByMessage = new Map<string, TokenUsage>();
  let lastText = "";
  let apiError: string | undefined;
  const read = (message: Record<string, unknown>): EngineEvent[] => {
    const events: EngineEvent[] = [];
    const body = asObject(message.message);
    const texts: string[] = [];
    for (const block of asArray(body.content).map(asObject)) {
      if (block.type === "text") {
        const text = asString(block.text) ?? "";
        texts.push(text);
        const shown = progressText(text);
        if (shown !== undefined) events.push({ kind: "progress", text: shown, detail: "message" });
      } else if (block.type === "tool_use") {
        events.push({ kind: "progress", text: toolLabel(asString(block.name) ?? "tool", block.input), detail: "tool" });
      }
    }
    if (texts.some((t) => t.trim() !== "")) lastText = texts.join("\n");
    apiError = asString(message.error) ?? apiError;
    if (body.usage !== undefined) {
      // One API response can arrive as several messages with the same id and usage: count it once.
      usageByMessage.set(asString(body.id) ?? `#${usageByMessage.size}`, claudeUsage(body.usage));
      events.push({ kind: "usage", usage: sumUsage(usageByMessage.values()) });
    }
    return events;
  };
  return {
    read,
    get lastText() {
      return lastText;
    },
    get apiError() {
      return apiError;
    },
    usage: () => (usageByMessage.size === 0 ? undefined : sumUsage(usageByMessage.values())),
  };
}

/** Claude's usage in the controller's terms: input counts cache reads and writes too; cached is the cache reads. */
export function claudeUsage(value: unknown): TokenUsage {
  const u = asObject(value);
  const cacheRead = asCount(u.cache_read_input_tokens);
  const cacheWrite = asCount(u.cache_creation_input_tokens);
  return {
    inputTokens: asCount(u.input_tokens) + cacheRead + cacheWrite,
    outputTokens: asCount(u.output_tokens),
    cachedInputTokens: cacheRead,
  };
}
