import { checkBehaviours, checkRateLimit } from "./sink-checks.js";
import type { SinkBehaviour, SinkRateLimit } from "./sink-types.js";

export type { SinkBehaviour, SinkRateLimit };

interface Step {
  behaviour: SinkBehaviour;
  remaining: number;
}

/** A scope's list of behaviours, played in order. */
export class Script {
  private steps: Step[] = [];

  /** Throws InvalidArgumentError, prefixed with `label`, for a behaviour the sink could not play. */
  constructor(behaviours: SinkBehaviour | readonly SinkBehaviour[] = [], label = "sink") {
    this.replace(behaviours, label);
  }

  replace(behaviours: SinkBehaviour | readonly SinkBehaviour[], label = "sink"): void {
    const list = Array.isArray(behaviours) ? behaviours : [behaviours as SinkBehaviour];
    checkBehaviours(list, label);
    this.steps = list.map((behaviour) => ({ behaviour, remaining: behaviour.times ?? Number.POSITIVE_INFINITY }));
  }

  /** The behaviour for the next request, consuming one use; undefined when used up. */
  next(): SinkBehaviour | undefined {
    while (this.steps.length > 0) {
      const step = this.steps[0] as Step;
      if (step.remaining > 0) {
        step.remaining -= 1;
        return step.behaviour;
      }
      this.steps.shift();
    }
    return undefined;
  }
}

/** Sliding-window counter behind {@link SinkRateLimit}. */
export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(
    readonly limit: SinkRateLimit,
    label = "sink",
  ) {
    checkRateLimit(limit, label);
  }

  /** Milliseconds until `key` may send again (0: allowed now, and counted). */
  take(key: string, now: number): number {
    const times = (this.windows.get(key) ?? []).filter((t) => now - t < this.limit.perMs);
    if (times.length >= this.limit.max) {
      this.windows.set(key, times);
      return (times[0] as number) + this.limit.perMs - now;
    }
    times.push(now);
    this.windows.set(key, times);
    return 0;
  }
}
