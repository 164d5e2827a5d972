import { status as GrpcStatus, Metadata, type ServiceError } from "@grpc/grpc-js";
import { type ChannelError, createChannelError, toChannelError, VersionMismatchError } from "../errors.js";
import { fromServiceError } from "../grpc/status-mapping.js";
import type { PluginProcess } from "./plugin-process.js";
import { settlesWithin } from "./stop-process.js";

/** What {@link handshakeFailure} needs from the start in progress. */
export interface FailureContext {
  proc: PluginProcess;
  commandLine: string;
  startTimeoutMs: number;
  supportedVersions: readonly number[];
  stop: () => Promise<void>;
  fail: (message: string, hint: string, cause?: unknown) => Promise<ChannelError>;
}

// The trailer an SDK plugin sets on its typed errors (see grpc/status-mapping.ts):
// its presence tells a refusal by the plugin's code from a broken call.
const PLUGIN_ERROR_CODE_KEY = "errand-error-code";

/**
 * Turns a failed Handshake RPC into the error the caller should see. The
 * plugin's own refusal (its `init` threw a typed error, or a version check)
 * keeps its class; a plugin that exited, hung past the start timeout or
 * broke the connection did not complete its handshake: PluginStartError.
 */
export async function handshakeFailure(error: unknown, context: FailureContext): Promise<ChannelError> {
  const { proc, commandLine, stop, fail } = context;
  const serviceError = error as ServiceError;
  if (serviceError.code === undefined) {
    return fail(
      `Handshake failed: ${toChannelError(error).message}`,
      "this looks like a bug in the host; report it with the message above",
      error,
    );
  }
  if (serviceError.code === GrpcStatus.FAILED_PRECONDITION && /interface version/.test(serviceError.details ?? "")) {
    await stop();
    return new VersionMismatchError(
      `${commandLine} refused interface version ${proc.line.interfaceVersion} (this host supports ${context.supportedVersions.join(", ")}): ${serviceError.details}`,
      {
        hint: "upgrade the older side so both share an interface version",
        cause: error,
      },
    );
  }
  const typedByPlugin =
    serviceError.metadata instanceof Metadata && serviceError.metadata.get(PLUGIN_ERROR_CODE_KEY).length > 0;
  const broken =
    serviceError.code === GrpcStatus.UNAVAILABLE
    || serviceError.code === GrpcStatus.INTERNAL
    || serviceError.code === GrpcStatus.UNKNOWN;
  if (
    typedByPlugin
    && serviceError.code !== GrpcStatus.DEADLINE_EXCEEDED
    && serviceError.code !== GrpcStatus.CANCELLED
  ) {
    await stop();
    return refusal(serviceError, commandLine);
  }
  // A dropped connection usually means the process died; its exit can trail the error a little.
  if (broken || serviceError.code === GrpcStatus.CANCELLED) await settlesWithin(proc.exited, 250);
  if (proc.exit) {
    const { code, signal } = proc.exit;
    return fail(
      `exited (code ${code}, signal ${signal}) during its Handshake (while its init ran)`,
      "see the plugin's stderr above; run it with ERRAND_PLUGIN_MAGIC_COOKIE=errand-notification-channel to reproduce",
      error,
    );
  }
  if (serviceError.code === GrpcStatus.DEADLINE_EXCEEDED) {
    return fail(
      `did not complete its Handshake within the start timeout of ${context.startTimeoutMs} ms (its init did not return)`,
      "make the channel's init return quickly (defer slow work to the first call), or give it more time (the host's start timeout: startTimeoutMs, or --start-timeout of the channel CLI)",
      error,
    );
  }
  if (broken || serviceError.code === GrpcStatus.CANCELLED) {
    return fail(
      `Handshake failed: ${serviceError.details || GrpcStatus[serviceError.code]}`,
      "see the plugin's stderr above; the plugin broke the connection during its Handshake",
      error,
    );
  }
  // A plugin in another language answers with a plain status: map it by status.
  await stop();
  return refusal(serviceError, commandLine);
}

/** The plugin refused its Handshake: its own error, with a hint even when the plugin gave none. */
function refusal(serviceError: ServiceError, commandLine: string): ChannelError {
  const error = fromServiceError(serviceError, `${commandLine}: Handshake`);
  if (error.hint) return error;
  return createChannelError(error.code, error.message, {
    cause: serviceError,
    retryAfterMs: error.retryAfterMs,
    hint: "the plugin refused to start with this config; check the channel's config and secrets against the plugin's documentation",
  });
}
