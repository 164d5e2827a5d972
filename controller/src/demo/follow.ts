import type { ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";

/** Ports the controller reported in its start-up logs. */
export interface ControllerPorts {
  webhook: number;
  ops: number;
}

/** Reads the controller's JSON log lines until it reports both ports, or fails with its last lines. */
export function waitForControllerLogs(
  child: ChildProcessByStdio<null, null, Readable>,
  timeoutMs: number,
): Promise<ControllerPorts> {
  return new Promise((resolve, reject) => {
    let text = "";
    let webhook: number | undefined;
    const timer = setTimeout(
      () => done(new Error(`the controller did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const done = (error?: Error, ports?: ControllerPorts) => {
      clearTimeout(timer);
      child.stderr.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(ports as ControllerPorts);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      for (const line of text.split("\n")) {
        if (line.includes('"webhook server listening"')) webhook = Number(/"port":(\d+)/.exec(line)?.[1]);
        if (line.includes('"controller started"') && webhook !== undefined) {
          const ops = Number(/"ops":\{[^}]*"port":(\d+)/.exec(line)?.[1]);
          done(undefined, { webhook, ops });
          return;
        }
      }
    };
    const onExit = (code: number | null) => {
      const last = text.trim().split("\n").slice(-5).join("\n");
      done(new Error(`the controller exited (code ${code}) before it was ready:\n${last}`));
    };
    child.stderr.on("data", onData);
    child.once("exit", onExit);
  });
}
