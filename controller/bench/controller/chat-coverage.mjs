// Which notifications the chat_a messages a bench target received cover, read
// from what a person sees: a message of its own (its fallback text names the
// ticket), or a line of a digest (the section it is listed under). The
// bench's tickets are named by their id (`with-channels-12 Bench ticket …`).

const idOf = (text) => /(?:^|[|:] ?)([A-Za-z][\w.]*-\d+) Bench ticket/.exec(text)?.[1];

/** `{ messages, digests, starts, completes, progress }`; starts and completes are sets of ticket ids. */
export function chatCoverage(messages) {
  const coverage = { messages: messages.length, digests: 0, starts: new Set(), completes: new Set(), progress: 0 };
  const add = (kind, id) => {
    if (id === undefined) return;
    if (kind === "start") coverage.starts.add(id);
    else if (kind === "complete") coverage.completes.add(id);
    else coverage.progress++;
  };
  for (const { text, blocks } of messages) {
    if (Array.isArray(blocks) && blocks[0]?.type === "header" && String(blocks[0].text?.text).startsWith("📋")) {
      coverage.digests++;
      let kind = "";
      for (const block of blocks) {
        for (const line of block.type === "section" ? String(block.text?.text ?? "").split("\n") : []) {
          if (line.startsWith("*:rocket:")) kind = "start";
          else if (line.startsWith("*:checkered_flag:")) kind = "complete";
          else if (line.startsWith("*:speech_balloon:")) kind = "progress";
          else if (line.startsWith("• ")) add(kind, idOf(line));
        }
      }
      continue;
    }
    const id = idOf(text.replace(/^[^:]*: /, ": "));
    if (text.startsWith("Agent started working on:")) add("start", id);
    else if (/^(Completed|Failed):/.test(text)) add("complete", id);
    else add("progress", idOf(text));
  }
  return coverage;
}
