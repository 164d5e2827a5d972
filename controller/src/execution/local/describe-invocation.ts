import type { EngineInvocation } from "../../engines/engine.js";

const MAX_ARG_CHARS = 200;

/** The command line as the run log shows it: arguments quoted, long ones (a prompt) shortened. */
export function describeInvocation(invocation: EngineInvocation): string {
  const parts = [invocation.command, ...invocation.args].map((part) => {
    const short = part.length > MAX_ARG_CHARS ? `${part.slice(0, MAX_ARG_CHARS)}... (${part.length} characters)` : part;
    return /^[\w@%+=:,./-]+$/.test(short) ? short : JSON.stringify(short);
  });
  const stdin = invocation.stdin === undefined ? "" : ` (stdin: ${Buffer.byteLength(invocation.stdin)} bytes)`;
  return `${parts.join(" ")}${stdin}`;
}
