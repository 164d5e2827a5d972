import type { V1Pod } from "@kubernetes/client-node";
import type { CheckoutOutcome } from "../../repositories/checkout-outcome.js";
import { CHECKOUT_CONTAINER, GIT_LINE } from "./checkout-script.js";

/** A termination message split into the push's line (when the wrapper wrote one) and the rest. */
export interface SplitMessage {
  checkout: CheckoutOutcome | undefined;
  rest: string | undefined;
}

/** Reads the {@link GIT_LINE} line the wrapper puts first when the run has a checkout. */
export function splitGitLine(message: string | undefined): SplitMessage {
  if (message === undefined || !message.startsWith(`${GIT_LINE} `)) return { checkout: undefined, rest: message };
  const newline = message.indexOf("\n");
  const line = newline === -1 ? message : message.slice(0, newline);
  const rest = newline === -1 ? "" : message.slice(newline + 1);
  const [, kind = "", branch = "", ...words] = line.split(" ");
  const detail = words.join(" ");
  const checkout = outcomeOf(kind, branch, detail);
  // A line the wrapper would not write is left in the message, which then reads as a foreign one.
  return checkout === undefined ? { checkout: undefined, rest: message } : { checkout, rest };
}

function outcomeOf(kind: string, branch: string, detail: string): CheckoutOutcome | undefined {
  if (branch === "") return undefined;
  if (kind === "pushed" && /^[0-9a-f]{40,64}$/.test(detail)) return { kind, branch, commit: detail };
  if (kind === "no-changes" || kind === "not-pushed") return { kind, branch };
  if (kind === "push-failed") return { kind, branch, reason: detail === "" ? "git gave no reason" : detail };
  return undefined;
}

/**
 * Why the checkout init container failed, in one line (the reason its
 * script wrote into its termination message); undefined while it has not
 * failed.
 */
export function checkoutFailure(pod: V1Pod | undefined): string | undefined {
  const status = pod?.status?.initContainerStatuses?.find((c) => c.name === CHECKOUT_CONTAINER);
  const terminated = status?.state?.terminated ?? status?.lastState?.terminated;
  if (terminated === undefined || terminated.exitCode === 0) return undefined;
  const said = terminated.message?.trim().split("\n")[0];
  if (said !== undefined && said !== "") return `the checkout failed: ${said.slice(0, 500)}`;
  return `the checkout failed: its init container ended with code ${terminated.exitCode} (${terminated.reason ?? "no reason"}) and left no message`;
}

/** The failure a push that did not go through adds to a run that otherwise succeeded. */
export function pushFailure(checkout: CheckoutOutcome | undefined): string | undefined {
  if (checkout?.kind !== "push-failed") return undefined;
  return `the push of branch ${checkout.branch} failed: ${checkout.reason}`;
}
