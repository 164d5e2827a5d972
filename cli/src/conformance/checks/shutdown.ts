import { callShutdown, signalProcess } from "@errand/channel-sdk/protocol";
import { fixtures } from "@errand/channel-sdk/testing";
import { type CheckDefinition, type CheckEnvironment, CheckFailure } from "../check.js";
import { type OpenChannel, openChannel, tail, timedCall } from "../harness.js";

/** go-plugin's kill window: a host waits this long before killing. */
export const PROMPT_EXIT_MS = 2000;

async function withCallsInFlight(env: CheckEnvironment, defer: (f: () => unknown) => void): Promise<OpenChannel> {
  const open = await openChannel(env, defer);
  open.sink?.behave({ hang: true });
  const ticket = fixtures.tickets.basic;
  for (let i = 0; i < 3; i++) void timedCall(open, { kind: "notify", message: `in flight ${i}`, ticket });
  if (open.sink) await open.sink.waitForRequests(1, 1500).catch(() => undefined);
  else await new Promise((r) => setTimeout(r, 50));
  return open;
}

function judge(open: OpenChannel, how: string, sentAt: number, exited: boolean, fix: string): void {
  if (exited) return;
  throw new CheckFailure({
    expected: `after ${how} with calls in flight the process exits within ${PROMPT_EXIT_MS} ms`,
    actual: `still running ${Date.now() - sentAt} ms after ${how}${tail(open.session)}`,
    fix,
  });
}

/** GRPCController/Shutdown ends the process promptly. */
export const shutdownRpcCheck: CheckDefinition = {
  id: "shutdown.rpc",
  title: "GRPCController/Shutdown ends the process promptly with calls in flight",
  async run(env, defer) {
    const open = await withCallsInFlight(env, defer);
    const sentAt = Date.now();
    let rpcError = "";
    await callShutdown(open.session.clients, PROMPT_EXIT_MS).catch((e: Error) => (rpcError = e.message));
    const exited = await open.session.exitsWithin(PROMPT_EXIT_MS - (Date.now() - sentAt));
    judge(
      open,
      `GRPCController/Shutdown${rpcError ? ` (which failed: ${rpcError})` : ""}`,
      sentAt,
      exited,
      "serve plugin.GRPCController: answer Shutdown, cancel in-flight calls and exit (the SDK's serve() does this)",
    );
  },
};

/** SIGTERM ends the process promptly. */
export const sigtermCheck: CheckDefinition = {
  id: "shutdown.sigterm",
  title: "SIGTERM ends the process promptly with calls in flight",
  async run(env, defer) {
    const open = await withCallsInFlight(env, defer);
    const sentAt = Date.now();
    signalProcess(open.session.child, "SIGTERM");
    const exited = await open.session.exitsWithin(PROMPT_EXIT_MS);
    judge(
      open,
      "SIGTERM",
      sentAt,
      exited,
      "on SIGTERM cancel in-flight calls and exit within a second (the SDK's serve() does this)",
    );
  },
};
