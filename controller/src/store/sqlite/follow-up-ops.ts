import { type AttemptRow, checkFollowUpRequest, nextFollowUpAttempt, pullRequestKey } from "../follow-up-rules.js";
import { requireText } from "../input-checks.js";
import { RUN_COLUMNS, type RunRow, toTaskRun, toTicket } from "../rows.js";
import { newRunId } from "../run-id.js";
import { runNotFound } from "../run-rules.js";
import type { FollowUpRequest, Store } from "../store.js";
import type { PreparedStatement, SqliteContext, SyncOps } from "./statements.js";

/**
 * Follow-up runs on SQLite: created in one IMMEDIATE transaction (the
 * database's single write lock), so two review events racing on one
 * ticket see each other's run and one of them is refused.
 */
export function createFollowUpOps({
  db,
  st,
  now,
}: SqliteContext): SyncOps<"createFollowUp" | "findPullRequestRun" | "recordSession"> {
  const prep = <P extends unknown[], R = unknown>(sql: string) => db.prepare(sql) as unknown as PreparedStatement<P, R>;
  const attemptsOf = prep<[string, string], AttemptRow>(
    "SELECT id, state, attempt, follow_up FROM task_runs WHERE source = ? AND ticket_id = ? ORDER BY attempt DESC",
  );
  const openedBy = prep<[string], RunRow>(
    `SELECT ${RUN_COLUMNS} FROM task_runs r WHERE r.pull_request_url = ? ORDER BY r.created_at, r.id LIMIT 1`,
  );
  const newest = prep<[string, string], RunRow>(
    `SELECT ${RUN_COLUMNS} FROM task_runs r WHERE r.source = ? AND r.ticket_id = ? ORDER BY r.attempt DESC LIMIT 1`,
  );
  const setSession = prep<[string, string]>("UPDATE task_runs SET session_id = ? WHERE id = ?");

  const create = db.transaction((req: FollowUpRequest, at: number) => {
    const parent = st.getRun.get(req.parentRunId);
    if (!parent) throw runNotFound(req.parentRunId);
    // An unfinished parent is an active run of the ticket: the rules refuse it as such.
    const attempt = nextFollowUpAttempt(req, attemptsOf.all(parent.source, parent.ticket_id));
    const id = newRunId(at);
    st.insertRun.run(id, parent.source, parent.ticket_id, attempt, parent.engine, at, at, req.reason, null);
    st.setFollowUp.run(parent.id, JSON.stringify(req.followUp), id);
    st.insertHistory.run({
      runId: id,
      from: null,
      to: "Queued",
      at,
      reason: req.reason,
      actorKind: null,
      actorName: null,
      actorFrom: null,
    });
    return toTaskRun(st.getRun.get(id) as RunRow);
  });

  return {
    createFollowUp(req) {
      requireText(req?.parentRunId, "parent run id");
      requireText(req.reason, "reason of the follow-up");
      checkFollowUpRequest(req);
      return create.immediate(req, now());
    },
    findPullRequestRun(pullRequestUrl) {
      const opened = openedBy.get(pullRequestKey(requireText(pullRequestUrl, "pull request url")));
      if (!opened) return undefined;
      const latest = newest.get(opened.source, opened.ticket_id) as RunRow;
      const ticket = st.getTicket.get(opened.source, opened.ticket_id) as { payload: string };
      return { opened: toTaskRun(opened), latest: toTaskRun(latest), ticket: toTicket(ticket.payload) };
    },
    recordSession(runId, sessionId) {
      const changed = setSession.run(requireText(sessionId, "session id"), requireText(runId, "run id"));
      if (changed.changes === 0) throw runNotFound(runId);
    },
  };
}

/** The store's wrapper of each synchronous operation: closed-store check and error translation, named by `action`. */
type Guard = <A extends unknown[], R>(action: string, fn: (...args: A) => R) => (...args: A) => Promise<R>;

/** The follow-up operations as the store exposes them, each behind `guard`. */
export function guardedFollowUpOps(
  context: SqliteContext,
  guard: Guard,
): Pick<Store, "createFollowUp" | "findPullRequestRun" | "recordSession"> {
  const ops = createFollowUpOps(context);
  return {
    createFollowUp: guard("creating a follow-up run", ops.createFollowUp),
    findPullRequestRun: guard("finding the run of a pull request", ops.findPullRequestRun),
    recordSession: guard("recording an engine session", ops.recordSession),
  };
}
