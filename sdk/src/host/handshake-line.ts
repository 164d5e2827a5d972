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

// go-plugin prints a TCP address as net.Addr.String(): "127.0.0.1:1234" or "[::1]:1234".
const TCP_ADDRESS = /^(?:(127\.\d{1,3}\.\d{1,3}\.\d{1,3})|\[(::1)\]):(\d{1,5})$/;

/**
 * Why `address` is not a loopback `<IP>:<port>`, or undefined when it is one.
 * Only loopback is accepted: the plugin is a local child process, and the
 * host sends it secrets, so a line naming another host must never be dialed.
 */
function tcpAddressProblem(address: string): string | undefined {
  const match = TCP_ADDRESS.exec(address);
  if (!match) return `TCP address ${JSON.stringify(address)} is not a loopback "<IP>:<port>" (127.0.0.0/8 or [::1])`;
  const [, ipv4, , port] = match;
  if (ipv4 && !ipv4.split(".").every((octet) => Number(octet) <= 255))
    return `TCP address ${JSON.stringify(address)} has an invalid IP address`;
  const portNumber = Number(port);
  if (portNumber < 1 || portNumber > 65535)
    return `TCP address ${JSON.stringify(address)} has port ${port}, outside 1-65535`;
  return undefined;
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
  const [core, app, network, address, protocol = "netrpc", cert] = parts as [
    string,
    string,
    string,
    string,
    string?,
    string?,
  ];
  // Digits only: Number() would also read "0x1", " 1" or "1e0" as 1.
  if (!/^\d+$/.test(core) || Number(core) !== CORE_PROTOCOL_VERSION)
    throw bad(`core protocol version ${JSON.stringify(core)} is not ${CORE_PROTOCOL_VERSION}`);
  const interfaceVersion = Number(app);
  if (!/^\d+$/.test(app) || !Number.isSafeInteger(interfaceVersion) || interfaceVersion < 1)
    throw bad(`interface version ${JSON.stringify(app)} is not a positive integer`);
  if (network !== "unix" && network !== "tcp")
    throw bad(`network ${JSON.stringify(network)} is neither "unix" nor "tcp"`);
  if (address === "") throw bad("the address is empty");
  const addressProblem = network === "tcp" ? tcpAddressProblem(address) : undefined;
  if (addressProblem) throw bad(addressProblem);
  if (protocol !== "grpc")
    throw bad(`protocol ${JSON.stringify(protocol)} is not "grpc" (net/rpc plugins are not supported)`);
  return {
    coreVersion: CORE_PROTOCOL_VERSION,
    interfaceVersion,
    network,
    address,
    protocol,
    serverCert: cert || undefined,
  };
}
