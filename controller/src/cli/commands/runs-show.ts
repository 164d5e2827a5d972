import { Command, Option } from "commander";
import { toSpecTicket } from "../../runs/spec-ticket.js";
import type { Store } from "../../store/store.js";
import { formatRunDetail, painter } from "../format-run.js";
import type { LoadedConfig } from "../load-for-cli.js";
import { formatRunChain, readRunChain } from "../run-chain.js";
import { type Common, json, parseCount, parseRunId, print, withCommonOptions } from "./runs-options.js";
import { quiet, withStore } from "./with-store.js";

/** Log bytes `runs show` reads by default: a step is one short line, but a stream-json line can be several KB. */
const STEPS_LOG_BYTES = 32_768;
const RAW_LOG_BYTES = 4096;

type ShowOptions = Common & { logBytes?: number; raw?: boolean };

/** `errand runs show <id>`: a run's ticket, timeline, result and log tail. */
export function createRunsShowCommand(): Command {
  return withCommonOptions(new Command("show"))
    .description("a run's ticket, timeline, result and log tail")
    .argument("<run-id>", "the run's id", parseRunId)
    .addOption(
      new Option(
        "--log-bytes <n>",
        `bytes of log to show (default ${STEPS_LOG_BYTES}, with --raw ${RAW_LOG_BYTES})`,
      ).argParser(parseCount),
    )
    .option("--raw", "the log's lines as the engine wrote them, not as readable steps")
    .action(async (id: string, options: ShowOptions) => {
      process.exitCode = await withStore(options, (store, loaded) => showRun(store, loaded, id, options));
    });
}

async function showRun(store: Store, { config }: LoadedConfig, id: string, options: ShowOptions): Promise<number> {
  const run = await store.getRun(id);
  if (run === undefined) return notFound(id);
  const [ticket, transitions, chain] = await Promise.all([
    store.getTicket(run.ticket),
    store.transitions(id),
    readRunChain(store, run),
  ]);
  const [{ createBackend }, { scrubbingBackend }, { availableSecretValues }] = await Promise.all([
    import("../../execution/create-backend.js"),
    import("../../execution/scrubbing-backend.js"),
    import("../../secrets/available-secret-values.js"),
  ]);
  // The log tail passes the same door as everything else an engine wrote: secrets masked, workspace paths relative.
  const secrets = await availableSecretValues(config, process.env);
  const backend = scrubbingBackend(await createBackend(run.backend ?? "local", config, quiet, secrets), secrets);
  const raw = options.raw === true || options.json === true;
  const log = await backend
    .readLog(run, options.logBytes ?? (raw ? RAW_LOG_BYTES : STEPS_LOG_BYTES))
    .finally(() => backend.close());
  if (options.json)
    json({ run, ticket: ticket === undefined ? undefined : toSpecTicket(ticket), transitions, log, chain });
  else {
    const paint = painter(process.stdout);
    const lines = chain === undefined ? [] : formatRunChain(chain, paint);
    print(formatRunDetail(run, ticket, transitions, log, paint, raw ? "raw" : "steps", lines));
  }
  return 0;
}

function notFound(id: string): number {
  process.stderr.write(`errand: no run ${id}; list runs with: errand runs\n`);
  return 1;
}
