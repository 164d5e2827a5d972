import type { DemoMessage } from "./demo-targets.js";
import type { Timeline } from "./timeline.js";

/** Hands each channel message to the timeline of the run being shown. */
export interface MessageRouter {
  deliver(m: DemoMessage): void;
  /** Messages go to `timeline` from now on, those held first. */
  use(timeline: Timeline): void;
  /** Messages are held until the next {@link MessageRouter.use} (the next run's timeline is not made yet). */
  hold(): void;
  /** Resolves once every channel of `targets` posted `count` completions, or after `timeoutMs` regardless. */
  completions(targets: readonly DemoMessage["target"][], count: number, timeoutMs: number): Promise<void>;
}

/** Before the first timeline, and outside any, messages are printed with `show` as they come. */
export function createMessageRouter(show: (m: DemoMessage) => void): MessageRouter {
  let current: Timeline | undefined;
  let holding = false;
  const held: DemoMessage[] = [];
  const completed = new Map<DemoMessage["target"], number>();
  return {
    deliver(m) {
      // Both channels word a successful end "Completed" (chat_a "✅ Completed: …", webhook_post "✅ Completed …").
      if (/\bCompleted\b/.test(m.text)) completed.set(m.target, (completed.get(m.target) ?? 0) + 1);
      if (current !== undefined) current.message(m);
      else if (holding) held.push(m);
      else show(m);
    },
    use(timeline) {
      current = timeline;
      holding = false;
      for (const m of held.splice(0)) timeline.message(m);
    },
    hold() {
      current = undefined;
      holding = true;
    },
    async completions(targets, count, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until && targets.some((t) => (completed.get(t) ?? 0) < count))
        await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}
