#!/usr/bin/env node
import { serve } from "@errand/channel-sdk";
import { webhookPost } from "./channel.js";

await serve(webhookPost);
