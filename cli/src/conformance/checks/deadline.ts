import { NotificationChannelService, NotifyRequest } from "@errand/channel-sdk/protocol";
import { fixtures } from "@errand/channel-sdk/testing";
import { type CheckDefinition, CheckFailure } from "../check.js";
import { expectOk, openChannel, tail, timedCall } from "../harness.js";
import { rawUnaryCall } from "../raw-call.js";
import { statusName } from "../session.js";

const DEADLINE_MS = 300;
const GRACE_MS = 1000;

/** The plugin itself ends a call whose deadline passed, and stays usable. */
export const deadlineCheck: CheckDefinition = {
  id: "deadline.honoured",
  title: "a deadline shorter than the work is honoured promptly",
  async run(env, defer) {
    const open = await openChannel(env, defer);
    // With a target, make the work longer than the deadline.
    open.sink?.behave({ delayMs: 3000, status: env.conformance?.sink.status, json: env.conformance?.sink.json });
    // fromPartial gives any field the .proto adds later its default, so this request needs no edit for one.
    const message = Buffer.from(
      NotifyRequest.encode(
        NotifyRequest.fromPartial({
          message: "deadline check",
          ticket: fixtures.tickets.basic,
          taskRunId: "conformance-deadline",
        }),
      ).finish(),
    );
    const attempt = () =>
      rawUnaryCall(
        open.session.line!,
        NotificationChannelService.notify.path,
        message,
        DEADLINE_MS,
        DEADLINE_MS + GRACE_MS,
      );
    const first = await attempt();
    // One more try when the first answer was late: a busy machine (a whole test suite on two cores) can hold a correct
    // plugin past the bound once; a plugin that ignores its deadline (the work takes 3 s) misses both.
    const outcome = first.status === undefined ? await attempt() : first;
    if (outcome.status === undefined) {
      throw new CheckFailure({
        expected: `a call sent with grpc-timeout ${DEADLINE_MS} ms is ended by the plugin within ${DEADLINE_MS + GRACE_MS} ms`,
        actual: `no answer after ${first.ms} ms, nor after ${outcome.ms} ms on a second try${tail(open.session)}`,
        fix: "pass the call's context/AbortSignal to all work (HTTP requests, sleeps) and return when it is cancelled; never block the event loop",
      });
    }
    open.sink?.reset();
    const after = await timedCall(open, {
      kind: "notify",
      message: "after a deadline",
      ticket: fixtures.tickets.basic,
    });
    expectOk(
      open,
      `Notify after a call that ended ${statusName(outcome.status)}`,
      after,
      "a cancelled call must leave the channel usable",
    );
  },
};
