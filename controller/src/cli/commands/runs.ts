import { Command, Option } from "commander";
import type { RunState } from "../../runs/task-run.js";
import { formatRunTable, painter } from "../format-run.js";
import { cliActor, createDecideCommand } from "./runs-approve.js";
import { type Common, json, parseCount, parseRunId, parseStates, print, withCommonOptions } from "./runs-options.js";
import { createRunsShowCommand } from "./runs-show.js";
import { withStore } from "./with-store.js";

/** `errand runs [--state S] [--json]`, `runs show|cancel|retry|approve|reject <id>`. */
export function createRunsCommand(): Command {
  const runs = withCommonOptions(new Command("runs"))
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
  runs.addCommand(createRunsShowCommand());
  runs.addCommand(createCancelCommand());
  runs.addCommand(createRetryCommand());
  runs.addCommand(createDecideCommand("approve"));
  runs.addCommand(createDecideCommand("reject"));
  return runs;
}

/** `errand runs cancel <id>`. */
function createCancelCommand(): Command {
  return withCommonOptions(new Command("cancel"))
    .description(
      "cancel a queued, running or awaiting-approval run (a running one is stopped by the controller within a second)",
    )
    .argument("<run-id>", "the run's id", parseRunId)
    .action(async (id: string, options: Common) => {
      process.exitCode = await withStore(options, async (store) => {
        const run = await store.requestCancel(id, "cancelled with errand runs cancel", cliActor());
        if (options.json) json(run);
        else
          print(
            run.state === "Cancelled"
              ? `${id} cancelled\n`
              : `${id}: cancel requested; the controller stops it (errand runs show ${id})\n`,
          );
        return 0;
      });
    });
}

/** `errand runs retry <id>`. */
function createRetryCommand(): Command {
  return withCommonOptions(new Command("retry"))
    .description("start a new attempt of a finished run's ticket")
    .argument("<run-id>", "the run's id", parseRunId)
    .action(async (id: string, options: Common) => {
      process.exitCode = await withStore(options, async (store) => {
        const run = await store.retry(id, `retry of ${id} requested with errand runs retry`, cliActor());
        if (options.json) json(run);
        else print(`queued ${run.id} (attempt ${run.attempt} of ${run.ticket.source}:${run.ticket.id})\n`);
        return 0;
      });
    });
}
