#!/usr/bin/env node
// The plugin measured by rpc-bench: every handler answers at once, so the
// figures show the SDK's own overhead.
import { defineChannel, serve } from "@errand/channel-sdk";

await serve(
  defineChannel({
    name: "bench_noop",
    version: "1.0.0",
    notify: () => {},
    notifyStart: () => ({ deliveryId: "ok" }),
    notifyComplete: () => {},
  }),
);
