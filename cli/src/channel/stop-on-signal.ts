import { killAllPluginsNow, livePluginCount, stopAllPlugins } from "../conformance/plugin-processes.js";
import { exitCodeFor, STOP_SIGNALS } from "../util/signals.js";

/**
 * Runs `work` (a command that starts plugin processes) so that Ctrl-C,
 * SIGTERM or SIGHUP stop every plugin (SIGTERM, a grace, SIGKILL) before
 * the CLI exits with 128 + the signal's number. A plugin that ignores SIGINT,
 * as go-plugin plugins do, would otherwise outlive the run. A second signal
 * kills the plugins at once.
 */
export async function stoppingPluginsOnSignal(command: string, work: () => Promise<number>): Promise<number> {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = exitCodeFor(signal);
    if (stopping) {
      killAllPluginsNow();
      process.exit(code);
    }
    stopping = true;
    const count = livePluginCount();
    process.stderr.write(
      `\nchannel ${command}: ${signal}: stopping${count ? ` ${count} plugin process${count === 1 ? "" : "es"}` : ""}\n`,
    );
    void stopAllPlugins().finally(() => process.exit(code));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    return await work();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}
