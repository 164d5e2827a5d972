import { Console } from "node:console";

/**
 * In a plugin, stdout belongs to the handshake line. Everything else that
 * would reach it (console.log from the author or a library, a stray
 * process.stdout.write) is sent to stderr instead, so a host never reads a
 * corrupt handshake. Installed when the SDK is loaded by a plugin process.
 */
let originalWrite: typeof process.stdout.write | undefined;

/** Routes console and process.stdout output to stderr. Idempotent. */
export function guardStdout(): void {
  if (originalWrite) return;
  originalWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  // The global console captured process.stdout when it was created, so its
  // methods are replaced by those of a console that writes only to stderr.
  const stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const method of [
    "log",
    "info",
    "debug",
    "dir",
    "dirxml",
    "table",
    "trace",
    "group",
    "groupEnd",
    "count",
    "time",
    "timeEnd",
    "timeLog",
  ] as const) {
    (console as unknown as Record<string, unknown>)[method] = (stderrConsole[method] as (...a: unknown[]) => void).bind(
      stderrConsole,
    );
  }
}

/** Writes the handshake line to the real stdout (the only thing ever written there). */
export function writeHandshakeLine(line: string): void {
  const write = originalWrite ?? process.stdout.write.bind(process.stdout);
  write(`${line}\n`);
}
