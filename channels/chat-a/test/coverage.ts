/**
 * Which notifications the messages a chat_a fake accepted cover, read from
 * what a person sees: a message of its own (by its fallback text), or a line
 * of a digest (by the section it is listed under). Tickets are named `#<id>`.
 * The burst test and the channels' benchmark count with it.
 */
export interface Coverage {
  /** `start <id>`, `complete <id>`, `progress <id>: <text>`, one per notification shown. */
  seen: string[];
  starts: Set<string>;
  completes: Set<string>;
  digests: number;
}

interface AcceptedMessage {
  text: string;
  blocks: unknown;
}

type Block = { type: string; text?: { text: string } };

const ID = /#(\d+)\b/;

export function chatACoverage(messages: readonly AcceptedMessage[]): Coverage {
  const coverage: Coverage = { seen: [], starts: new Set(), completes: new Set(), digests: 0 };
  const add = (kind: string, id: string | undefined, text = "") => {
    if (id === undefined) return;
    coverage.seen.push(kind === "progress" ? `progress ${id}: ${text}` : `${kind} ${id}`);
    if (kind === "start") coverage.starts.add(id);
    if (kind === "complete") coverage.completes.add(id);
  };
  for (const message of messages) {
    const blocks = (message.blocks ?? []) as Block[];
    if (blocks[0]?.type === "header" && blocks[0].text?.text.startsWith("📋")) {
      coverage.digests++;
      let kind = "";
      for (const block of blocks) {
        for (const line of block.type === "section" ? (block.text?.text.split("\n") ?? []) : []) {
          if (line.startsWith("*:rocket:")) kind = "start";
          else if (line.startsWith("*:checkered_flag:")) kind = "complete";
          else if (line.startsWith("*:speech_balloon:")) kind = "progress";
          else if (line.startsWith("• ")) add(kind, ID.exec(line)?.[1], line.split(">: ").at(-1));
        }
      }
      continue;
    }
    const id = ID.exec(message.text)?.[1];
    if (message.text.startsWith("Agent started working on:")) add("start", id);
    else if (/^(Completed|Failed):/.test(message.text)) add("complete", id);
    else add("progress", id, message.text.split(": ").at(-1));
  }
  return coverage;
}
