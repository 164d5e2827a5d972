import { existsSync } from "node:fs";
import type { Logger } from "@errand/channel-sdk";
import { Command, InvalidArgumentError, Option } from "commander";
import { toSpecTicket } from "../../runs/spec-ticket.js";
import { RUN_STATES, type RunState } from "../../runs/task-run.js";
import type { Store } from "../../store/store.js";
import { formatRunDetail, formatRunTable, painter } from "../format-run.js";
import type { LoadedConfig } from "../load-for-cli.js";

interface Common {
  config?: string;
  json?: boolean;
}

/** Log bytes `runs show` reads by default: a step is one short line, but a stream-json line can be several KB. */
const STEPS_LOG_BYTES = 32_768;
const RAW_LOG_BYTES = 4096;

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

function parseStates(value: string, previous: RunState[] = []): RunState[] {
  const out = [...previous];
  for (const part of value.split(",")) {
    const match = RUN_STATES.find((s) => s.toLowerCase() === part.trim().toLowerCase());
    if (match === undefined)
      throw new InvalidArgumentError(`unknown state "${part}"; use one of ${RUN_STATES.join(", ")}`);
    out.push(match);
  }
  return out;
}

/** Refuses an empty or blank run id before the store is opened: it names no run. */
function parseRunId(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError(
      "give the id of a run, such as run_01m87kkxw7v6ettjqzhskgch50 (errand runs lists them)",
    );
  return value;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100_000)
    throw new InvalidArgumentError("give a whole number from 1 to 100000");
  return n;
}

/**
 * Opens the store of the configuration for one command, and closes it after.
 * The config and store modules are loaded here, on use, so that `errand
 * --help` and the other commands do not pay for them.
 */
async function withStore(
  options: Common,
  body: (store: Store, loaded: LoadedConfig) => Promise<number>,
): Promise<number> {
  const [{ loadForCli, reportError }, { openStore }, { createSecretStore }] = await Promise.all([
    import("../load-for-cli.js"),
    import("../../store/open-store.js"),
    import("../../secrets/secret-store.js"),
  ]);
  let store: Store | undefined;
  try {
    const loaded = await loadForCli(options.config, false);
    const { config } = loaded;
    if (config.store.backend === "sqlite" && !existsSync(config.store.path)) {
      // Opening would create an empty store: more likely the wrong folder or --config than a new installation.
      process.stderr.write(
        `errand: there is no store at ${config.store.path} (store.path${config.file ? ` of ${config.file}` : ", embedded defaults"}); no controller has run with this configuration. Pass the --config the controller runs with.\n`,
      );
      return 1;
    }
    // Only the store's own secret: these commands need no channel or engine credentials.
    const storeSecrets: Record<string, string> = {};
    if (config.store.backend === "postgres") {
      const url = createSecretStore({ env: process.env, dir: config.secrets.dir }).resolve(config.store.urlSecret);
      if (url !== undefined) storeSecrets[config.store.urlSecret] = url;
    }
    store = await openStore(config.store, storeSecrets, quiet);
    return await body(store, loaded);
  } catch (error) {
    return reportError(error);
  } finally {
    await store?.close();
  }
}

const print = (text: string) => process.stdout.write(text);
const json = (value: unknown) => print(`${JSON.stringify(value, null, 2)}\n`);

/** `errand runs [--state S] [--json]`, `runs show|cancel|retry <id>`. */
export function createRunsCommand(): Command {
  const common = (c: Command) =>
    c
      .option(
        "-c, --config <file>",
        "configuration file (default: ./errand.yaml when it exists, else the embedded defaults)",
      )
      .option("--json", "print JSON for scripts");

  const runs = common(new Command("runs"))
    // `runs show <id> --config f`: the option belongs to show, not to the list command around it.
    .enablePositionalOptions()
    .description("list TaskRuns, newest first")
    .addOption(
      new Option("-s, --state <states>", "only these states (comma-separated or repeated)").argParser(parseStates),
    )
    .addOption(new Option("-n, --limit <n>", "at most n runs").argParser(parseCount).default(50))
    .action(async (options: Common & { state?: RunState[]; limit: number }) => {
      process.exitCode = await withStore(options, async (store) => {
        const list = await store.listRuns({
          ...(options.state ? { states: options.state } : {}),
          limit: options.limit,
        });
        if (options.json) json(list);
        else print(formatRunTable(list, painter(process.stdout), Date.now()));
        return 0;
      });
    });

  runs.addCommand(
    common(new Command("show"))
      .description("a run's ticket, timeline, result and log tail")
      .argument("<run-id>", "the run's id", parseRunId)
      .addOption(
        new Option(
          "--log-bytes <n>",
          `bytes of log to show (default ${STEPS_LOG_BYTES}, with --raw ${RAW_LOG_BYTES})`,
        ).argParser(parseCount),
      )
      .option("--raw", "the log's lines as the engine wrote them, not as readable steps")
      .action(async (id: string, options: Common & { logBytes?: number; raw?: boolean }) => {
        process.exitCode = await withStore(options, async (store, { config }) => {
          const run = await store.getRun(id);
          if (run === undefined) return notFound(id);
          const [ticket, transitions] = await Promise.all([store.getTicket(run.ticket), store.transitions(id)]);
          const [{ createBackend }, { scrubbingBackend }, { availableSecretValues }] = await Promise.all([
            import("../../execution/create-backend.js"),
            import("../../execution/scrubbing-backend.js"),
            import("../../secrets/available-secret-values.js"),
          ]);
          // The log tail passes the same door as everything else an engine wrote: secrets masked, workspace paths relative.
          const secrets = await availableSecretValues(config, process.env);
          const backend = scrubbingBackend(
            await createBackend(run.backend ?? "local", config, quiet, secrets),
            secrets,
          );
          const raw = options.raw === true || options.json === true;
          const log = await backend
            .readLog(run, options.logBytes ?? (raw ? RAW_LOG_BYTES : STEPS_LOG_BYTES))
            .finally(() => backend.close());
          if (options.json)
            json({ run, ticket: ticket === undefined ? undefined : toSpecTicket(ticket), transitions, log });
          else print(formatRunDetail(run, ticket, transitions, log, painter(process.stdout), raw ? "raw" : "steps"));
          return 0;
        });
      }),
  );

  runs.addCommand(
    common(new Command("cancel"))
      .description("cancel a queued or running run (a running one is stopped by the controller within a second)")
      .argument("<run-id>", "the run's id", parseRunId)
      .action(async (id: string, options: Common) => {
        process.exitCode = await withStore(options, async (store) => {
          const run = await store.requestCancel(id, "cancelled with errand runs cancel");
          if (options.json) json(run);
          else
            print(
              run.state === "Cancelled"
                ? `${id} cancelled\n`
                : `${id}: cancel requested; the controller stops it (errand runs show ${id})\n`,
            );
          return 0;
        });
      }),
  );

  runs.addCommand(
    common(new Command("retry"))
      .description("start a new attempt of a finished run's ticket")
      .argument("<run-id>", "the run's id", parseRunId)
      .action(async (id: string, options: Common) => {
        process.exitCode = await withStore(options, async (store) => {
          const run = await store.retry(id, `retry of ${id} requested with errand runs retry`);
          if (options.json) json(run);
          else print(`queued ${run.id} (attempt ${run.attempt} of ${run.ticket.source}:${run.ticket.id})\n`);
          return 0;
        });
      }),
  );
  return runs;
}

function notFound(id: string): number {
  process.stderr.write(`errand: no run ${id}; list runs with: errand runs\n`);
  return 1;
}
