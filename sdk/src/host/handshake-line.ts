import { CORE_PROTOCOL_VERSION } from "../version.js";

/** The parsed go-plugin handshake line: `CORE|APP|NETWORK|ADDRESS|PROTOCOL[|CERT]`. */
export interface HandshakeLine {
  coreVersion: number;
  interfaceVersion: number;
  network: "unix" | "tcp";
  address: string;
  protocol: "grpc";
  /** The plugin's AutoMTLS certificate (base64 DER), when it sent one. */
  serverCert: string | undefined;
}

/** Thrown with a message that quotes the offending line and names the field. */
export class HandshakeLineError extends Error {
  override readonly name = "HandshakeLineError";
}

/**
 * Parses and validates a handshake line. The version check against the
 * host's own list is the caller's, so it can name both sides.
 */
export function parseHandshakeLine(raw: string): HandshakeLine {
  const line = raw.trim();
  const parts = line.split("|");
  const bad = (what: string) =>
    new HandshakeLineError(
      `invalid handshake line ${JSON.stringify(line.slice(0, 200))}: ${what}; expected "${CORE_PROTOCOL_VERSION}|<interface version>|unix|<socket path>|grpc" or "…|tcp|127.0.0.1:<port>|grpc"`,
    );
  if (parts.length < 4) throw bad(`it has ${parts.length} field(s), at least 4 are needed`);
  const [core, app, network, address, protocol = "netrpc", cert] = parts as [string, string, string, string, string?, string?];
  if (Number(core) !== CORE_PROTOCOL_VERSION) throw bad(`core protocol version ${JSON.stringify(core)} is not ${CORE_PROTOCOL_VERSION}`);
  const interfaceVersion = Number(app);
  if (!Number.isInteger(interfaceVersion) || interfaceVersion < 1) throw bad(`interface version ${JSON.stringify(app)} is not a positive integer`);
  if (network !== "unix" && network !== "tcp") throw bad(`network ${JSON.stringify(network)} is neither "unix" nor "tcp"`);
  if (address === "") throw bad("the address is empty");
  if (protocol !== "grpc") throw bad(`protocol ${JSON.stringify(protocol)} is not "grpc" (net/rpc plugins are not supported)`);
  return { coreVersion: CORE_PROTOCOL_VERSION, interfaceVersion, network, address, protocol, serverCert: cert || undefined };
}
