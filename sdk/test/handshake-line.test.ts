import { describe, expect, it } from "vitest";
import { HandshakeLineError, parseHandshakeLine } from "./support/internals.js";
import { negotiateVersion } from "./support/protocol-internals.js";

describe("parseHandshakeLine", () => {
  it("parses unix, tcp and AutoMTLS lines", () => {
    expect(parseHandshakeLine("1|1|unix|/tmp/p/plugin.sock|grpc\n")).toEqual({
      coreVersion: 1,
      interfaceVersion: 1,
      network: "unix",
      address: "/tmp/p/plugin.sock",
      protocol: "grpc",
      serverCert: undefined,
    });
    expect(parseHandshakeLine("1|2|tcp|127.0.0.1:12345|grpc|MIIB")).toMatchObject({
      network: "tcp",
      interfaceVersion: 2,
      serverCert: "MIIB",
    });
    // go-plugin always prints the sixth field, empty without AutoMTLS.
    expect(parseHandshakeLine("1|1|unix|/s|grpc|").serverCert).toBeUndefined();
  });

  it.each([
    ["hello world", /at least 4/],
    ["2|1|unix|/s|grpc", /core protocol version "2"/],
    ["1|x|unix|/s|grpc", /interface version "x"/],
    ["1|1|udp|/s|grpc", /network "udp"/],
    ["1|1|unix||grpc", /address is empty/],
    ["1|1|unix|/s|netrpc", /protocol "netrpc"/],
    ["1|1|unix|/s", /protocol "netrpc"/],
    ["1|0x1|unix|/s|grpc", /interface version "0x1"/],
    ["1| 1|unix|/s|grpc", /interface version " 1"/],
    ["0x1|1|unix|/s|grpc", /core protocol version "0x1"/],
    ["1|1|tcp|localhost|grpc", /TCP address "localhost" is not a loopback "<IP>:<port>"/],
    ["1|1|tcp|localhost:1234|grpc", /TCP address "localhost:1234" is not a loopback/],
    ["1|1|tcp|10.0.0.1:80|grpc", /TCP address "10.0.0.1:80" is not a loopback/],
    ["1|1|tcp|0.0.0.0:80|grpc", /TCP address "0.0.0.0:80" is not a loopback/],
    ["1|1|tcp|[::2]:80|grpc", /TCP address "\[::2\]:80" is not a loopback/],
    ["1|1|tcp|127.0.0.1|grpc", /TCP address "127.0.0.1" is not a loopback/],
    ["1|1|tcp|127.0.0.300:80|grpc", /invalid IP address/],
    ["1|1|tcp|127.0.0.1:0|grpc", /port 0, outside 1-65535/],
    ["1|1|tcp|127.0.0.1:65536|grpc", /port 65536, outside 1-65535/],
  ])("rejects %j", (line, message) => {
    expect(() => parseHandshakeLine(line)).toThrow(HandshakeLineError);
    expect(() => parseHandshakeLine(line)).toThrow(message);
  });

  it.each(["127.0.0.1:1", "127.1.2.3:65535", "[::1]:1234"])("accepts the loopback TCP address %s", (address) => {
    expect(parseHandshakeLine(`1|1|tcp|${address}|grpc`).address).toBe(address);
  });
});

describe("negotiateVersion (PLUGIN_PROTOCOL_VERSIONS)", () => {
  it("picks the highest common version", () => {
    expect(negotiateVersion("1,2,3", [1, 2])).toBe(2);
    expect(negotiateVersion(" 2 , 1 ", [1])).toBe(1);
  });
  it("without a host list, offers the plugin's highest", () => {
    expect(negotiateVersion(undefined, [1, 3, 2])).toBe(3);
  });
  it("with no common version, offers the plugin's lowest so the host can refuse it by name", () => {
    expect(negotiateVersion("5", [2, 3])).toBe(2);
  });
  it("rejects a malformed list", () => {
    expect(() => negotiateVersion("1,two", [1])).toThrow(/comma-separated list of integers/);
  });
});
