import { z } from "zod";

/**
 * When more notifications than this wait for a room, the next message is one
 * digest of them: five seconds of backlog at chat A's pace of one message a
 * second, about two at a chat B webhook's usual 5 requests per 2 s.
 */
export const DEFAULT_DIGEST_THRESHOLD = 5;

const THRESHOLD_PROBLEM = `must be an integer between 1 and 1000: the number of waiting notifications above which they are sent as one digest; leave it out for ${DEFAULT_DIGEST_THRESHOLD}`;

/** The `digest_threshold` key of a built-in chat channel's config: 1–1000, default {@link DEFAULT_DIGEST_THRESHOLD}. */
export const digestThresholdSchema = z
  .int({ error: THRESHOLD_PROBLEM })
  .min(1, THRESHOLD_PROBLEM)
  .max(1000, THRESHOLD_PROBLEM)
  .default(DEFAULT_DIGEST_THRESHOLD);
