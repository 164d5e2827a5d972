import type { Ticket } from "@errand/channel-sdk";
import type { ConfigProblem } from "../../config/config-error.js";
import type { ControllerConfig } from "../../config/controller-config.js";
import { createEngine } from "../../engines/create-engine.js";
import type { Engine, EngineInput } from "../../engines/engine.js";
import { ControllerError } from "../../errors.js";
import { executableProblem } from "../../notify/executable-problem.js";

/** What `errand run` would refuse beyond the schema, and what it would start with but likely fail at. */
export interface StartChecks {
  problems: ConfigProblem[];
  warnings: string[];
}

/**
 * The checks `errand run` makes while it starts, made without starting
 * anything: each engine is built as the controller builds it (a `command`
 * engine without a command is refused), each channel is found as the
 * controller finds it (built-in, installed package or `command`), and a
 * built-in channel's `config` is validated by the channel's own
 * `configSchema`. An engine whose executable is not on PATH is a warning,
 * not a problem: it may be installed before the first run, and cluster
 * runs use the image's.
 */
export async function startChecks(config: ControllerConfig, env: NodeJS.ProcessEnv): Promise<StartChecks> {
  const engines = engineChecks(config, env);
  const channels = await channelProblems(config);
  return { problems: [...engines.problems, ...channels], warnings: engines.warnings };
}

// Only the command matters here; the values are never used to run anything.
const SAMPLE_INPUT: EngineInput = {
  ticket: { id: "0", title: "", description: "" } as Ticket,
  runId: "config-check",
  prompt: "",
  workspace: "/nonexistent",
  files: { prompt: "/nonexistent/prompt", ticket: "/nonexistent/ticket", result: "/nonexistent/result" },
  apiKey: undefined,
};

function engineChecks(config: ControllerConfig, env: NodeJS.ProcessEnv): StartChecks {
  const out: StartChecks = { problems: [], warnings: [] };
  for (const engineConfig of Object.values(config.engines.byName)) {
    const key = `engines.${engineConfig.name}`;
    let engine: Engine;
    try {
      engine = createEngine(engineConfig);
    } catch (error) {
      if (!(error instanceof ControllerError)) throw error;
      out.problems.push({
        key,
        message: error.message.replace(`${key}: `, ""),
        fix: error.hint ?? "see docs/engines.md",
      });
      continue;
    }
    if (config.execution.backend !== "local") continue;
    const command = engine.invocation(SAMPLE_INPUT).command;
    const why = executableProblem(command, env);
    if (why !== undefined) {
      out.warnings.push(
        `${key}: the executable ${JSON.stringify(command)} ${why}, so its runs would fail to start; install it, or give its path in ${key}.command (docs/engines.md)`,
      );
    }
  }
  return out;
}

async function channelProblems(config: ControllerConfig): Promise<ConfigProblem[]> {
  if (config.notifications.channels.length === 0) return [];
  const [{ resolveChannel }, { createPluginFinder }, { validateConfig }] = await Promise.all([
    import("../../notify/resolve-channel.js"),
    import("../../notify/find-plugin-package.js"),
    import("@errand/channel-sdk"),
  ]);
  const finder = createPluginFinder({ pluginsDir: config.pluginsDir });
  const problems: ConfigProblem[] = [];
  for (const entry of config.notifications.channels) {
    const key = `notifications.channels[${entry.index}]`;
    const resolution = resolveChannel(entry, finder);
    if ("problem" in resolution) {
      problems.push({ key, message: resolution.problem.message, fix: resolution.problem.fix });
      continue;
    }
    // A plugin's schema lives in its own process: `errand channels list` starts it and shows what it refuses.
    if (resolution.source.kind !== "builtin") continue;
    const { configSchema } = await resolution.source.builtin.definition();
    if (configSchema === undefined) continue;
    try {
      await validateConfig(configSchema, entry.config, { label: entry.backend });
    } catch (error) {
      const e = error as Error & { hint?: string };
      problems.push({ key: `${key}.config`, message: e.message, fix: e.hint ?? "correct the channel's config" });
    }
  }
  return problems;
}

/**
 * Starts the plugin channels as `errand run` does (found, spawned, their
 * Handshake with their config and secrets) and stops them again, nothing
 * sent; what a plugin refuses is a problem of its entry. Built-in channels
 * were checked by their schema already and are not started.
 */
export async function pluginChannelProblems(
  config: ControllerConfig,
  secrets: Record<string, string>,
): Promise<ConfigProblem[]> {
  const [{ resolveChannel }, { createPluginFinder }] = await Promise.all([
    import("../../notify/resolve-channel.js"),
    import("../../notify/find-plugin-package.js"),
  ]);
  const finder = createPluginFinder({ pluginsDir: config.pluginsDir });
  const plugins = config.notifications.channels.filter((entry) => {
    const resolution = resolveChannel(entry, finder);
    return !("problem" in resolution) && resolution.source.kind !== "builtin";
  });
  if (plugins.length === 0) return [];
  const [{ listChannels }, { ChannelSetupError }, { silentLogger }] = await Promise.all([
    import("../../notify/channels-report.js"),
    import("../../notify/channel-setup-error.js"),
    import("@errand/channel-sdk/host"),
  ]);
  const logger = silentLogger;
  try {
    await listChannels({
      config: { ...config, notifications: { ...config.notifications, channels: plugins } },
      secrets,
      logger,
    });
    return [];
  } catch (error) {
    if (!(error instanceof ChannelSetupError)) throw error;
    return error.problems.map((p) => ({ key: `notifications.channels (${p.entry})`, message: p.message, fix: p.fix }));
  }
}
