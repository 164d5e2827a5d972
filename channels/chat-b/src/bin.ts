#!/usr/bin/env node
// The chat_b channel as a plugin process: a host starts this with the magic
// cookie set and talks gRPC to it (see @errand/channel-sdk's serve).
import { serve } from "@errand/channel-sdk";
import { chatB } from "./channel.js";

await serve(chatB);
