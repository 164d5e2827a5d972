import type { TokenUsage } from "@errand/channel-sdk";

/** No tokens. */
export const NO_TOKENS: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

/** The sum of token counts. */
export function sumUsage(all: Iterable<TokenUsage>): TokenUsage {
  let sum = NO_TOKENS;
  for (const u of all) {
    sum = {
      inputTokens: sum.inputTokens + u.inputTokens,
      outputTokens: sum.outputTokens + u.outputTokens,
      cachedInputTokens: sum.cachedInputTokens + u.cachedInputTokens,
    };
  }
  return sum;
}
