#!/usr/bin/env node
// The plugin's executable: the Errand controller starts it and talks to it
// over gRPC. Run by hand it prints help and exits (it needs the host's cookie).
import { serve } from "@errand/channel-sdk";
import { channel } from "./channel.js";

await serve(channel);
