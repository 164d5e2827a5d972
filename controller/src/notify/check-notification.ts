import { hostname } from "node:os";
import type { Ticket } from "@errand/channel-sdk";

/** The ticket `errand channels check` sends: plainly a test, tied to no real work. */
export const CHECK_TICKET: Ticket = {
  id: "errand-channel-check",
  title: "Errand channel check (test notification)",
  description: "Sent by `errand channels check` to test this channel. No agent is working on anything.",
  ticketType: "test",
  repoUrl: "",
  externalUrl: "",
  labels: [],
  source: "errand",
};

/** The text of the test notification, naming where and when it was sent. */
export function checkMessage(at: Date = new Date(), host: string = hostname()): string {
  return `Errand test notification: channel check from ${host} at ${at.toISOString()}`;
}
