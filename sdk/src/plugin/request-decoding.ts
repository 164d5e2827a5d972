import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { InvalidArgumentError } from "../errors.js";
import { NotificationChannelService } from "../gen/errand/v1/notifications.js";

/**
 * Stands in for a request the plugin could not decode. grpc-js answers a
 * throwing deserializer with INTERNAL "Error deserializing request"; the
 * fault is the sender's, so the handler answers INVALID_ARGUMENT instead,
 * with this error.
 */
export class UndecodableRequest {
  constructor(readonly error: InvalidArgumentError) {}
}

/** Field number → name of a 64-bit integer, or name and layout of a message holding some. */
type Int64Layout = { [field: number]: string | [string, Int64Layout] };

const TOKEN_USAGE: Int64Layout = { 1: "input_tokens", 2: "output_tokens", 3: "cached_input_tokens" };
const TASK_RESULT: Int64Layout = { 6: "duration_ms", 7: ["token_usage", TOKEN_USAGE] };
// Only NotifyComplete carries 64-bit integers (TaskResult); the generated
// decoder refuses those beyond Number.MAX_SAFE_INTEGER without naming them.
const INT64_FIELDS: Record<string, Int64Layout> = { NotifyComplete: { 3: ["result", TASK_RESULT] } };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The first 64-bit integer in `bytes` too large for a JavaScript number, by its proto field path. */
function findUnsafeInteger(
  bytes: Uint8Array,
  layout: Int64Layout,
  prefix: string,
): { path: string; value: string } | undefined {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    const entry = layout[fieldNo];
    if (typeof entry === "string" && wireType === WireType.Varint) {
      const value = BigInt(reader.uint64());
      if (value > MAX_SAFE) return { path: prefix + entry, value: value.toString() };
    } else if (Array.isArray(entry) && wireType === WireType.LengthDelimited) {
      const found = findUnsafeInteger(reader.bytes(), entry[1], `${prefix}${entry[0]}.`);
      if (found) return found;
    } else {
      reader.skip(wireType, fieldNo);
    }
  }
  return undefined;
}

/** Why `bytes` (a `method` request) did not decode, naming the field where it can. */
function explain(method: string, bytes: Buffer, error: unknown): InvalidArgumentError {
  const layout = INT64_FIELDS[method];
  let unsafe: { path: string; value: string } | undefined;
  try {
    unsafe = layout ? findUnsafeInteger(bytes, layout, "") : undefined;
  } catch {
    // Malformed in some other way; the decoder's own message says how.
  }
  if (unsafe) {
    return new InvalidArgumentError(
      `${method}: ${unsafe.path} is ${unsafe.value}, more than this plugin can represent exactly (${Number.MAX_SAFE_INTEGER})`,
      {
        hint: `send ${unsafe.path} as a whole number up to 2^53-1, or leave it unset when unknown`,
      },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new InvalidArgumentError(`${method}: the request could not be decoded (${reason})`, {
    hint: "the host sent a malformed errand.v1 message; check that it encodes requests from the same .proto files",
  });
}

/**
 * NotificationChannelService whose request deserializers never throw: a
 * request that does not decode becomes an {@link UndecodableRequest} for
 * the handler to refuse.
 */
export function decodingGuardedService(): typeof NotificationChannelService {
  const guarded: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(NotificationChannelService)) {
    const label = method.path.slice(method.path.lastIndexOf("/") + 1);
    const decode = method.requestDeserialize as (value: Buffer) => unknown;
    guarded[name] = {
      ...method,
      requestDeserialize: (value: Buffer) => {
        try {
          return decode(value);
        } catch (error) {
          return new UndecodableRequest(explain(label, value, error));
        }
      },
    };
  }
  return guarded as typeof NotificationChannelService;
}
