// The plugin itself: serves the channel until the controller stops it.
// bin.ts runs it, bundled (dist/plugin.cjs) or as built by tsc.
import { serve } from "@errand/channel-sdk";
import { webhookPost } from "./channel.js";

// Not awaited: the bundle is CommonJS, which has no top-level await. A
// rejection still ends the process with the error on stderr.
void serve(webhookPost);
