import type { Logger } from "@errand/channel-sdk";
import { Command } from "commander";
import type { ControllerConfig } from "../../config/controller-config.js";
import type { ChannelsInput } from "../../notify/channels-report.js";
import { reportError } from "../report-error.js";

/** What `errand channels` needs from the rest of the CLI. */
export interface ChannelsCommandDeps {
  /** Loads and validates the configuration (`--config`, else the default file) and resolves its secrets. */
  loadConfig(file?: string): Promise<{ config: ControllerConfig; secrets: Record<string, string> }>;
  /** Receives the channels' log lines (plugin stderr included); default warnings and errors as JSON on stderr, secrets masked. */
  logger?: (secrets: readonly string[]) => Logger;
}

interface Options {
  config?: string;
  json?: boolean;
}

const print = (text: string) => process.stdout.write(text);

async function input(deps: ChannelsCommandDeps, options: Options): Promise<ChannelsInput> {
  const { config, secrets } = await deps.loadConfig(options.config);
  const values = Object.values(secrets);
  // The SDK (and gRPC with it) loads only when a channels command runs.
  const logger =
    deps.logger?.(values)
    ?? (await import("@errand/channel-sdk/host")).createLogger({ level: "warn", secrets: values });
  return { config, secrets, logger };
}

function nothingConfigured(loaded: ChannelsInput, json: boolean | undefined): boolean {
  if (loaded.config.notifications.channels.length > 0) return false;
  if (json) print("[]\n");
  else
    process.stderr.write(
      `errand: no notification channels are configured (notifications.channels in ${loaded.config.file ?? "the embedded defaults"})\n`,
    );
  return true;
}

/**
 * `errand channels list|check`: what the controller would start as its
 * notification channels, and a marked test notification through each.
 */
export function createChannelsCommand(deps: ChannelsCommandDeps): Command {
  const common = (c: Command) =>
    c
      .option(
        "-c, --config <file>",
        "configuration file (default: ./errand.yaml when it exists, else the embedded defaults)",
      )
      .option("--json", "print JSON for scripts");

  const list = common(new Command("list"))
    .description(
      "start each configured channel (no message is sent) and show its backend, where it was found, version, interface version and health",
    )
    .action(async (options: Options) => {
      try {
        const loaded = await input(deps, options);
        if (nothingConfigured(loaded, options.json)) return;
        const { listChannels, formatChannelList } = await import("../../notify/channels-report.js");
        const statuses = await listChannels(loaded);
        print(options.json ? `${JSON.stringify(statuses, null, 2)}\n` : formatChannelList(statuses));
        process.exitCode = statuses.every((s) => s.state === "up") ? 0 : 1;
      } catch (error) {
        process.exitCode = reportError(error);
      }
    });

  const check = common(new Command("check"))
    .argument("[label]", "only the channel with this label (its name:, else its backend)")
    .description(
      "send one clearly marked test notification through each channel and report what happened; exit 1 if any failed",
    )
    .action(async (label: string | undefined, options: Options) => {
      try {
        const loaded = await input(deps, options);
        if (nothingConfigured(loaded, options.json)) return;
        const { checkChannels, formatCheckResults } = await import("../../notify/channels-report.js");
        const results = await checkChannels(loaded, label);
        print(options.json ? `${JSON.stringify(results, null, 2)}\n` : formatCheckResults(results));
        process.exitCode = results.every((r) => r.ok) ? 0 : 1;
      } catch (error) {
        process.exitCode = reportError(error);
      }
    });

  return new Command("channels")
    .description("inspect and test the notification channels")
    .addCommand(list)
    .addCommand(check);
}
