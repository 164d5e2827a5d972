import { createLogger } from "@errand/channel-sdk/logger";
import { createController } from "../../controller.js";
import { createBufferedWriter } from "../../logging/buffered-writer.js";
import { secretValues } from "../../secrets/secret-values.js";
import { loadForCli, reportError } from "../load-for-cli.js";
import type { RunOptions } from "./run.js";

/** The body of `errand run`; resolves with the exit code. */
export async function run(options: RunOptions): Promise<number> {
  let loaded;
  try {
    loaded = await loadForCli(options.config, true);
  } catch (error) {
    return reportError(error);
  }
  const { config, warnings, secrets } = loaded;
  const write = createBufferedWriter();
  process.once("exit", () => write.flush());
  process.stderr.on("error", () => {});
  const logger = createLogger({
    level: config.ops.logLevel,
    fields: { component: "controller" },
    secrets: secretValues(config, secrets),
    write,
  });
  for (const warning of warnings) logger.warn(warning);

  let controller;
  try {
    controller = await createController({ config, secrets, logger });
    await controller.start();
  } catch (error) {
    write.flush();
    await controller?.stop().catch(() => {});
    return reportError(error);
  }
  const stopCause = await new Promise<{ signal: NodeJS.Signals } | { lost: string }>((resolve) => {
    const once = (s: NodeJS.Signals) => {
      process.off("SIGTERM", once);
      process.off("SIGINT", once);
      resolve({ signal: s });
    };
    process.on("SIGTERM", once);
    process.on("SIGINT", once);
    void controller.lost.then((reason) => resolve({ lost: reason }));
  });
  const signal = "signal" in stopCause ? stopCause.signal : undefined;
  logger.info("shutting down", {
    signal,
    lost_lead: "lost" in stopCause ? stopCause.lost : undefined,
    grace_ms: config.ops.shutdownGraceMs,
  });
  const force = (s: NodeJS.Signals) => {
    logger.warn("second signal: exiting without waiting for running runs", { signal: s });
    write.flush();
    process.exit(130);
  };
  process.once("SIGTERM", force);
  process.once("SIGINT", force);
  await controller.stop();
  write.flush();
  // A controller that lost the lead exits non-zero, so that its supervisor restarts it as a standby.
  return "lost" in stopCause ? 1 : 0;
}
