import { callHealth, checkChannelName } from "@errand/channel-sdk/protocol";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { type CheckDefinition, CheckFailure } from "../check.js";
import { openChannel, startPlugin, tail } from "../harness.js";
import { describeCallError } from "../session.js";

/** go-plugin's health check. */
export const healthCheck: CheckDefinition = {
  id: "health.serving",
  title: 'health service "plugin" is SERVING',
  async run(env, defer) {
    const { session } = await startPlugin(env, defer);
    await session.handshakeLine(env.startTimeoutMs);
    try {
      await callHealth(session.clients, 2000);
    } catch (error) {
      throw new CheckFailure({
        expected: 'grpc.health.v1.Health/Check for service "plugin" answers SERVING',
        actual: `${(error as Error).message}${tail(session)}`,
        fix: 'register the gRPC health service and set "plugin" to SERVING (the SDK does this)',
      });
    }
  },
};

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Handshake for version 1 returns a valid identity. */
export const handshakeV1Check: CheckDefinition = {
  id: "handshake.v1",
  title: "Handshake for interface version 1 returns a valid name and version",
  async run(env, defer) {
    const open = await openChannel(env, defer);
    const { interfaceVersion, supportedVersions } = open.response;
    const problems: string[] = [];
    if (interfaceVersion !== 1) problems.push(`it answered interface version ${interfaceVersion} to a request for 1`);
    if (!supportedVersions.includes(1))
      problems.push(`its supported versions [${supportedVersions.join(", ")}] lack 1`);
    const nameProblem = checkChannelName(open.name);
    if (nameProblem) problems.push(nameProblem);
    if (!SEMVER.test(open.version)) problems.push(`version ${JSON.stringify(open.version)} is not a semantic version`);
    if (env.target.manifestChannel && env.target.manifestChannel !== open.name) {
      problems.push(
        `the name ${JSON.stringify(open.name)} differs from package.json errand.channel ${JSON.stringify(env.target.manifestChannel)}`,
      );
    }
    if (problems.length > 0) {
      throw new CheckFailure({
        expected:
          'interface version 1, supported versions that include 1, a channel name such as "chat_a" (lowercase, digits, "_" or "-"), a semantic version, and the name package.json declares',
        actual: problems.join("; "),
        fix: "answer the requested interface version and list every version you speak in supportedVersions; fix the name and version given to defineChannel() (and package.json errand.channel)",
      });
    }
  },
};

/** An interface version the plugin does not speak is refused. */
export const unsupportedVersionCheck: CheckDefinition = {
  id: "handshake.unsupported-version",
  title: "Handshake for an unsupported interface version is refused with FAILED_PRECONDITION",
  async run(env, defer) {
    const { session, inputs } = await startPlugin(env, defer);
    await session.handshakeLine(env.startTimeoutMs);
    let outcome: string;
    try {
      const response = await session.handshake(inputs.config, inputs.secrets, 999);
      outcome = `it accepted version 999 and answered interface version ${response.interfaceVersion}`;
    } catch (error) {
      const { code, text } = describeCallError(error);
      if (code === GrpcStatus.FAILED_PRECONDITION) return;
      outcome = `it answered ${text}`;
    }
    throw new CheckFailure({
      expected:
        "Handshake with interfaceVersion 999 fails with FAILED_PRECONDITION naming the versions the plugin supports",
      actual: outcome,
      fix: "compare HandshakeRequest.interfaceVersion with the versions you implement and refuse others with FAILED_PRECONDITION (the SDK does this)",
    });
  },
};
