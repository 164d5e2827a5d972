import { truncate } from "@errand/channel-sdk/helpers";
import { type Block, blocksTextLength, type ChatAMessage } from "./blocks.js";
import { BUDGET, SLACK_LIMITS } from "./limits.js";

/**
 * The last guard before sending: at most 50 blocks, the blocks' text within
 * the total budget (dropping trailing section blocks first, keeping the
 * header, the first section and the context footer), and the fallback text
 * within its limit. Renderers already stay inside; this keeps a future
 * renderer change from ever producing a message the platform refuses.
 */
export function fitMessage(message: ChatAMessage): ChatAMessage {
  let blocks = message.blocks.slice(0, SLACK_LIMITS.blocks);
  while (blocks.length > 2 && blocksTextLength(blocks) > BUDGET.blocksTotalText) {
    const index = lastDroppable(blocks);
    if (index < 0) break;
    blocks = [...blocks.slice(0, index), ...blocks.slice(index + 1)];
  }
  return { text: truncate(message.text, SLACK_LIMITS.text) || " ", blocks };
}

function lastDroppable(blocks: Block[]): number {
  for (let i = blocks.length - 1; i >= 2; i--) {
    const block = blocks[i];
    if (block?.type === "section" && block.text) return i;
  }
  return -1;
}
