import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "@errand/channel-sdk/protocol";
import { fixtures } from "@errand/channel-sdk/testing";
import { type CheckDefinition, CheckFailure } from "../check.js";
import { delay, openChannel, startPlugin, tail, timedCall } from "../harness.js";

const COOKIE_WAIT_MS = 3000;

/** Without the magic cookie a plugin must refuse to serve. */
export const cookieCheck: CheckDefinition = {
  id: "startup.cookie",
  title: "refuses to start without the magic cookie",
  async run(env, defer) {
    const { session } = await startPlugin(env, defer, { cookie: false });
    const exited = await session.exitsWithin(COOKIE_WAIT_MS);
    // A program that cannot even be started exits no more "with a non-zero code" than it refuses the cookie.
    if (session.spawnError) throw cannotStart(session.spawnError);
    const handshake = session.stdoutLines.find((line) => /^\d+\|\d+\|(unix|tcp)\|/.test(line));
    if (handshake || !exited || session.exit?.code === 0) {
      const what = handshake
        ? `it printed a handshake line (${JSON.stringify(handshake.slice(0, 80))}) and served`
        : !exited
          ? `it was still running after ${COOKIE_WAIT_MS} ms`
          : "it exited with code 0";
      throw new CheckFailure({
        expected: `without ${MAGIC_COOKIE_KEY} the plugin prints help on stderr and exits with a non-zero code`,
        actual: what,
        fix: `check ${MAGIC_COOKIE_KEY}=${MAGIC_COOKIE_VALUE} before serving (the SDK's serve() does this)`,
      });
    }
  },
};

function cannotStart(error: Error): CheckFailure {
  return new CheckFailure({
    expected: "the plugin command can be started",
    actual: `starting it failed: ${error.message}`,
    fix: "give an executable that exists: chmod +x it, or run a script through its interpreter (-- node plugin.js)",
  });
}

/** The first stdout line is a valid go-plugin handshake line, in time. */
export const handshakeLineCheck: CheckDefinition = {
  id: "startup.handshake-line",
  title: "prints a valid handshake line within the start timeout",
  async run(env, defer) {
    const { session } = await startPlugin(env, defer);
    try {
      const line = await session.handshakeLine(env.startTimeoutMs);
      if (line.interfaceVersion !== 1) {
        throw new Error(
          `the line offers interface version ${line.interfaceVersion}, but the host offered only 1 (PLUGIN_PROTOCOL_VERSIONS=1)`,
        );
      }
    } catch (error) {
      if (session.spawnError) throw cannotStart(session.spawnError);
      throw new CheckFailure({
        expected: `a first stdout line such as "1|1|unix|/tmp/plugin123/plugin.sock|grpc" within ${env.startTimeoutMs} ms`,
        actual: `${(error as Error).message}${tail(session)}`,
        fix: "print exactly one handshake line on stdout as the first thing and send every log to stderr (the SDK's serve() does this)",
      });
    }
  },
};

/** Nothing but the handshake line on stdout, even while serving calls. */
export const stdoutCleanCheck: CheckDefinition = {
  id: "startup.stdout-clean",
  title: "writes nothing but the handshake line to stdout",
  async run(env, defer) {
    const open = await openChannel(env, defer);
    const ticket = fixtures.tickets.basic;
    await timedCall(open, { kind: "notify", message: "stdout check", ticket });
    await timedCall(open, { kind: "notifyStart", ticket });
    await timedCall(open, { kind: "notifyComplete", ticket, result: fixtures.results.success });
    await timedCall(open, {
      kind: "notifyComplete",
      ticket: fixtures.tickets.unicode,
      result: fixtures.results.failure,
    });
    await delay(100);
    const extra = open.session.stdoutLines.slice(1);
    if (extra.length > 0) {
      throw new CheckFailure({
        expected: "only the handshake line on stdout",
        actual: `${extra.length} more line(s) on stdout, the first: ${JSON.stringify(extra[0]?.slice(0, 120))}`,
        fix: "stdout is the protocol channel: write logs to stderr (the SDK's logger and serve() redirect console.log)",
      });
    }
  },
};
