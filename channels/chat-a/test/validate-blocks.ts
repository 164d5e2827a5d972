/**
 * Block Kit validation as the platform does it for messages, with its
 * documented limits (https://docs.slack.dev/reference/block-kit/blocks and the
 * pages of each block and composition object). Problems are phrased like the
 * platform's `invalid_blocks` details: "<problem> [json-pointer:/blocks/0/text/text]".
 */
const TOTAL_TEXT_LIMIT = 13_000; // msg_blocks_too_long, observed (slackapi/bolt-js#2509), not documented

export function validateBlocks(blocks: unknown): string[] {
  const problems: string[] = [];
  const at = (pointer: string, problem: string) => problems.push(`${problem} [json-pointer:${pointer}]`);
  if (!Array.isArray(blocks)) {
    at("/blocks", "must be an array");
    return problems;
  }
  if (blocks.length > 50) at("/blocks", "must provide no more than 50 items");
  let total = 0;

  const text = (value: unknown, pointer: string, max: number, only?: "plain_text"): void => {
    if (typeof value !== "object" || value === null) return void at(pointer, "must be a text object");
    const object = value as Record<string, unknown>;
    if (object.type !== "plain_text" && object.type !== "mrkdwn")
      return void at(`${pointer}/type`, "must be one of plain_text, mrkdwn");
    if (only && object.type !== only) at(`${pointer}/type`, `must be ${only}`);
    if (object.emoji !== undefined && object.type !== "plain_text")
      at(`${pointer}/emoji`, "is only allowed with plain_text");
    if (typeof object.text !== "string") return void at(`${pointer}/text`, "must be a string");
    if (object.text.length < 1) at(`${pointer}/text`, "must be more than 0 characters");
    if (object.text.length > max) at(`${pointer}/text`, `must be less than ${max + 1} characters`);
    total += object.text.length;
  };

  blocks.forEach((value, i) => {
    const pointer = `/blocks/${i}`;
    if (typeof value !== "object" || value === null) return void at(pointer, "must be an object");
    const block = value as Record<string, unknown>;
    if (typeof block.block_id === "string" && block.block_id.length > 255)
      at(`${pointer}/block_id`, "must be less than 256 characters");
    switch (block.type) {
      case "section": {
        if (block.text === undefined && block.fields === undefined) at(pointer, "must provide text or fields");
        if (block.text !== undefined) text(block.text, `${pointer}/text`, 3000);
        if (block.fields !== undefined) {
          if (!Array.isArray(block.fields)) return void at(`${pointer}/fields`, "must be an array");
          if (block.fields.length > 10) at(`${pointer}/fields`, "must provide no more than 10 items");
          block.fields.forEach((f, j) => text(f, `${pointer}/fields/${j}`, 2000));
        }
        return;
      }
      case "header":
        return text(block.text, `${pointer}/text`, 150, "plain_text");
      case "context": {
        if (!Array.isArray(block.elements) || block.elements.length === 0)
          return void at(`${pointer}/elements`, "must provide at least 1 item");
        if (block.elements.length > 10) at(`${pointer}/elements`, "must provide no more than 10 items");
        block.elements.forEach((e, j) => text(e, `${pointer}/elements/${j}`, 3000));
        return;
      }
      case "actions": {
        if (!Array.isArray(block.elements) || block.elements.length === 0)
          return void at(`${pointer}/elements`, "must provide at least 1 item");
        if (block.elements.length > 25) at(`${pointer}/elements`, "must provide no more than 25 items");
        block.elements.forEach((e, j) => {
          const element = e as Record<string, unknown>;
          const p = `${pointer}/elements/${j}`;
          if (element?.type !== "button") return void at(`${p}/type`, "unsupported element type");
          text(element.text, `${p}/text`, 75, "plain_text");
          if (typeof element.url === "string" && element.url.length > 3000)
            at(`${p}/url`, "must be less than 3001 characters");
          if (typeof element.value === "string" && element.value.length > 2000)
            at(`${p}/value`, "must be less than 2001 characters");
          if (typeof element.action_id === "string" && element.action_id.length > 255)
            at(`${p}/action_id`, "must be less than 256 characters");
          if (element.style !== undefined && element.style !== "primary" && element.style !== "danger")
            at(`${p}/style`, "must be one of primary, danger");
        });
        return;
      }
      case "divider":
        return;
      default:
        at(`${pointer}/type`, `unsupported type ${JSON.stringify(block.type)}`);
    }
  });
  if (problems.length === 0 && total > TOTAL_TEXT_LIMIT) problems.push("msg_blocks_too_long");
  return problems;
}
