import * as z from "zod";
import { duration } from "../config/schema/duration-schema.js";
import { section } from "../config/schema/kit.js";
import { codehostASchema } from "./codehost-a/codehost-a-schema.js";
import { trackerASchema } from "./tracker-a/tracker-a-schema.js";
import { trackerBSchema } from "./tracker-b/tracker-b-schema.js";

const pollInterval = duration(1, 86_400, 30).prefault(30).meta({
  description: "Seconds between polls: a number of seconds or a duration such as `30s`, `2m`, `1h` (default 30 s).",
});

/**
 * One poll backend: the `ticketing` branch that selects it (its vendor's
 * config fragment under `config`) and the loader of its adapter. The loader
 * imports the vendor's SDK only when it is the one configured: together they
 * would add some 50 MB to every controller.
 */
const pollBackend = <B extends string, C extends z.ZodType, A>(
  backend: B,
  config: C,
  load: (config: z.output<C>, token: string | undefined) => Promise<A>,
) => ({
  backend,
  branch: section(
    { backend: z.literal(backend).meta({ description: "Ticket source." }), poll_interval: pollInterval, config },
    { fix: "write ticketing: with backend, poll_interval and config below it" },
  ),
  load,
});

/** Every poll backend (`ticketing.backend`), in the order the schema and its messages list them: the only list of them. */
export const POLL_BACKENDS = [
  pollBackend("tracker_a", trackerASchema, async (config, token) =>
    (await import("./tracker-a/tracker-a-adapter.js")).createTrackerAAdapter(config, token),
  ),
  pollBackend("tracker_b", trackerBSchema, async (config, token) =>
    (await import("./tracker-b/tracker-b-adapter.js")).createTrackerBAdapter(config, token),
  ),
  pollBackend("codehost_a", codehostASchema, async (config, token) =>
    (await import("./codehost-a/codehost-a-adapter.js")).createCodehostAAdapter(config, token),
  ),
] as const;
