import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { CALL_TARGET_MS, type PartialNotificationCall } from "@errand/channel-sdk/protocol";
import { fixtures } from "@errand/channel-sdk/testing";
import type { CheckDefinition } from "../check.js";
import { expectOk, openChannel, timedCall } from "../harness.js";
import { concurrencyFor } from "./rate.js";

/** The message text of the Notify checks: plain ASCII so a target check can find it in any encoding. */
export const NOTIFY_MESSAGE = "Conformance check: tests are running";

const FIX_SPEED = `answer within ${CALL_TARGET_MS} ms: keep retries inside a budget (the SDK's retry() defaults to 4 s) and return typed errors`;

interface AllThreeSpec {
  id: string;
  title: string;
  /** How each call is named in a failure: Notify, NotifyStart, NotifyComplete. */
  labels: readonly [string, string, string];
  /** The engine sent with NotifyStart; default the harness's. */
  engine?: string;
  fix: string;
  ticket: () => Ticket;
  message: (ticket: Ticket) => string;
  result: () => TaskResult;
}

/** A check that sends the same kind of fixture through Notify, NotifyStart and NotifyComplete. */
function allThree(spec: AllThreeSpec): CheckDefinition {
  return {
    id: spec.id,
    title: spec.title,
    async run(env, defer) {
      const open = await openChannel(env, defer);
      const ticket = spec.ticket();
      const [notify, start, complete] = spec.labels;
      expectOk(
        open,
        notify,
        await timedCall(open, { kind: "notify", message: spec.message(ticket), ticket }),
        spec.fix,
      );
      expectOk(open, start, await timedCall(open, { kind: "notifyStart", ticket, engine: spec.engine }), spec.fix);
      expectOk(
        open,
        complete,
        await timedCall(open, { kind: "notifyComplete", ticket, result: spec.result() }),
        spec.fix,
      );
    },
  };
}

/** A check that makes one call with the basic fixtures and expects it to succeed in time. */
function singleCall(id: string, title: string, label: string, call: () => PartialNotificationCall): CheckDefinition {
  return {
    id,
    title,
    async run(env, defer) {
      const open = await openChannel(env, defer);
      expectOk(open, label, await timedCall(open, call()), FIX_SPEED);
    },
  };
}

/** Notify, NotifyStart and NotifyComplete (success and failure) with realistic fixtures. */
export const basicChecks: CheckDefinition[] = [
  singleCall("notify.basic", "Notify succeeds within 5 s", "Notify", () => ({
    kind: "notify",
    message: NOTIFY_MESSAGE,
    ticket: fixtures.tickets.basic,
  })),
  singleCall("notify.start", "NotifyStart succeeds within 5 s", "NotifyStart", () => ({
    kind: "notifyStart",
    ticket: fixtures.tickets.basic,
  })),
  singleCall(
    "notify.complete-success",
    "NotifyComplete with a success succeeds within 5 s",
    "NotifyComplete (success)",
    () => ({
      kind: "notifyComplete",
      ticket: fixtures.tickets.basic,
      result: fixtures.results.success,
    }),
  ),
  singleCall(
    "notify.complete-failure",
    "NotifyComplete with a failure succeeds within 5 s",
    "NotifyComplete (failure)",
    () => ({
      kind: "notifyComplete",
      ticket: fixtures.tickets.basic,
      result: fixtures.results.failure,
    }),
  ),
  allThree({
    id: "notify.minimal",
    title: "a ticket and result with empty fields are handled",
    labels: ["Notify (minimal ticket)", "NotifyStart (minimal ticket)", "NotifyComplete (minimal result)"],
    engine: "",
    fix: "treat every ticket and result field as possibly empty (proto3 sends unset fields as empty)",
    ticket: () => fixtures.tickets.minimal,
    message: () => "",
    result: () => fixtures.results.minimalSuccess,
  }),
  allThree({
    id: "notify.unicode",
    title: "emoji, RTL, CJK and combining marks are handled",
    labels: ["Notify (unicode)", "NotifyStart (unicode)", "NotifyComplete (unicode)"],
    fix: "handle text as Unicode: truncate by grapheme (the SDK's truncate()), never by byte or code unit",
    ticket: () => fixtures.tickets.unicode,
    message: (ticket) => ticket.title,
    result: () => fixtures.results.unicode,
  }),
  allThree({
    id: "notify.long-text",
    title: "very long titles, descriptions and summaries are handled",
    labels: ["Notify (long text)", "NotifyStart (long text)", "NotifyComplete (long summary)"],
    fix: "truncate text to the target's limits (the SDK's truncate()) instead of sending it whole or failing",
    ticket: () => fixtures.tickets.longText,
    message: (ticket) => ticket.description,
    result: () => fixtures.results.longSummary,
  }),
  {
    id: "notify.concurrent",
    title: "concurrent calls all succeed within 5 s",
    async run(env, defer) {
      const open = await openChannel(env, defer);
      const count = concurrencyFor(env.conformance?.rate, 8);
      const ticket = fixtures.tickets.basic;
      const results = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          i % 3 === 0
            ? timedCall(open, { kind: "notify", message: `${NOTIFY_MESSAGE} #${i}`, ticket })
            : i % 3 === 1
              ? timedCall(open, { kind: "notifyStart", ticket })
              : timedCall(open, { kind: "notifyComplete", ticket, result: fixtures.results.success }),
        ),
      );
      const fix =
        "keep no per-call state in module globals and let calls run side by side; queue with the SDK's throttle instead of failing";
      results.forEach((r, i) => expectOk(open, `call ${i + 1} of ${count} concurrent calls`, r, fix));
    },
  },
];
