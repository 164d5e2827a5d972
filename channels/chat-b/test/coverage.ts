/**
 * Which notifications the messages a chat_b fake accepted cover, read from
 * what a person sees: a message of its own (by its embed's title), or a line
 * of a digest (by the embed it is listed in). Tickets are named `#<id>`.
 * The burst test and the channels' benchmark count with it.
 */
export interface Coverage {
  /** `start <id>`, `complete <id>`, `progress <id>: <text>`, one per notification shown. */
  seen: string[];
  starts: Set<string>;
  completes: Set<string>;
  digests: number;
}

type Embed = { title?: string; description?: string };

const ID = /#(\d+)\b/;

export function chatBCoverage(bodies: readonly Record<string, unknown>[]): Coverage {
  const coverage: Coverage = { seen: [], starts: new Set(), completes: new Set(), digests: 0 };
  const add = (kind: string, id: string | undefined, text = "") => {
    if (id === undefined) return;
    coverage.seen.push(kind === "progress" ? `progress ${id}: ${text}` : `${kind} ${id}`);
    if (kind === "start") coverage.starts.add(id);
    if (kind === "complete") coverage.completes.add(id);
  };
  for (const body of bodies) {
    const embeds = (body.embeds ?? []) as Embed[];
    if (typeof body.content === "string" && body.content.startsWith("📋")) {
      coverage.digests++;
      for (const embed of embeds) {
        const kind = embed.title?.startsWith("🚀") ? "start" : embed.title?.startsWith("🏁") ? "complete" : "progress";
        for (const line of embed.description?.split("\n") ?? [])
          add(kind, ID.exec(line)?.[1], line.split("): ").at(-1));
      }
      continue;
    }
    const title = embeds[0]?.title ?? "";
    const id = ID.exec(title)?.[1];
    if (title.startsWith("🚀")) add("start", id);
    else if (/^(✅|❌)/.test(title)) add("complete", id);
    else add("progress", id, embeds[0]?.description);
  }
  return coverage;
}
