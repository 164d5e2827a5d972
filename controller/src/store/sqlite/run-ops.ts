import { type Actor, isTerminal, type RunState, type TaskRun } from "../../runs/task-run.js";
import { pullRequestKey } from "../follow-up-rules.js";
import { requireCount, requireMs, requireText, requireTime } from "../input-checks.js";
import { actorColumns, jsonOrNull, type RunRow, toTaskRun, toTicket, transitionActor } from "../rows.js";
import { newRunId } from "../run-id.js";
import { cancelFinished, cancelledBeforeStart, retryUnfinished, retryWhileActive, runNotFound } from "../run-rules.js";
import type { TransitionRequest } from "../store.js";
import { checkTransitionRequest } from "../transition-rules.js";
import type { SqliteContext, SyncOps } from "./statements.js";

/**
 * Claiming and moving TaskRuns on SQLite. Every read-then-write is one
 * IMMEDIATE transaction: it takes the database's single write lock before
 * reading, so two processes never both see a run as claimable or in the
 * same `from` state.
 */
export function createRunOps({
  db,
  st,
  now,
}: SqliteContext): SyncOps<
  | "claimQueued"
  | "releaseAllClaims"
  | "releaseClaim"
  | "transition"
  | "updateRunning"
  | "retry"
  | "requestCancel"
  | "takeUnannounced"
  | "claimApprovalAnnouncement"
> {
  const tx = createRunTransactions(db, st);
  const mustGet = (runId: string): RunRow => mustGetRun(st, runId);

  return {
    claimQueued(owner, limit, leaseMs) {
      requireText(owner, "claim owner");
      if (requireCount(limit, "claim limit") === 0) return [];
      return tx.claim.immediate(owner, limit, requireMs(leaseMs, "claim lease"), now());
    },
    releaseAllClaims() {
      return st.releaseAllClaims.run().changes;
    },
    releaseClaim(runId, owner) {
      st.releaseClaim.run(requireText(runId, "run id"), requireText(owner, "claim owner"));
    },
    transition(req) {
      checkTransitionRequest(req);
      requireText(req.reason, `reason of the transition of run ${req.runId}`);
      const at = req.at === undefined ? now() : requireTime(req.at, `time of the transition of run ${req.runId}`);
      return tx.transition.immediate(req, at);
    },
    updateRunning(runId, patch) {
      const changed = st.updateRunning.run({
        id: requireText(runId, "run id"),
        at: now(),
        cost: patch.costUsd ?? null,
        logRef: patch.logRef ?? null,
        attachment: jsonOrNull(patch.attachment),
        branch: patch.branch ?? null,
      });
      // A run that ended meanwhile keeps its final values; only an unknown id is an error.
      if (changed.changes === 0) mustGet(runId);
    },
    retry(runId, reason, actor) {
      return tx.retry.immediate(requireText(runId, "run id"), requireText(reason, "reason of the retry"), now(), actor);
    },
    requestCancel(runId, reason, actor) {
      const id = requireText(runId, "run id");
      return tx.cancel.immediate(id, requireText(reason, "reason of the cancel"), now(), actor);
    },
    takeUnannounced(limit) {
      if (requireCount(limit, "limit of runs to announce") === 0) return [];
      return tx.takeUnannounced.immediate(limit);
    },
    claimApprovalAnnouncement(runId) {
      return st.claimApprovalAnnouncement.run(now(), requireText(runId, "run id")).changes === 1;
    },
  };
}

type Statements = SqliteContext["st"];

/** The read-then-write steps of the run operations, each one transaction (the caller runs them IMMEDIATE). */
function createRunTransactions(db: SqliteContext["db"], st: Statements) {
  const mustGet = (runId: string): RunRow => mustGetRun(st, runId);
  const move = (req: TransitionRequest, current: RunState, at: number): RunRow | undefined =>
    applyTransition(st, req, current, at);

  const claim = db.transaction((owner: string, limit: number, leaseMs: number, at: number) => {
    const rows = st.claimable.all(at, limit);
    for (const row of rows) st.setClaim.run(owner, at + leaseMs, row.id);
    return rows.map((row) => ({ run: toTaskRun(row), ticket: toTicket(row.payload) }));
  });

  const transition = db.transaction((req: TransitionRequest, at: number) => {
    const [only] = req.from;
    if (req.from.length === 1 && only !== undefined) {
      // The common case needs no read first: the UPDATE is conditional on the state.
      const moved = move(req, only, at);
      if (!moved) mustGet(req.runId);
      return moved && toTaskRun(moved);
    }
    const row = mustGet(req.runId);
    if (!req.from.includes(row.state)) return undefined;
    const moved = move(req, row.state, at);
    return moved && toTaskRun(moved);
  });

  type Step = (runId: string, reason: string, at: number, actor: Actor | undefined) => TaskRun;
  const retry = db.transaction<Step>((runId, reason, at, actor) => retryRun(st, runId, reason, at, actor));
  const cancel = db.transaction<Step>((runId, reason, at, actor) => cancelRun(st, runId, reason, at, actor));

  const takeUnannounced = db.transaction((limit: number) => {
    const rows = st.unannounced.all(limit);
    for (const row of rows) st.clearAnnouncement.run(row.id);
    return rows.map((row) => ({ run: toTaskRun(row), ticket: toTicket(row.payload) }));
  });

  return { claim, transition, retry, cancel, takeUnannounced };
}

function mustGetRun(st: Statements, runId: string): RunRow {
  const row = st.getRun.get(runId);
  if (!row) throw runNotFound(runId);
  return row;
}

/** Moves the run from `current` (the UPDATE is conditional on it) and records the step; undefined when it was not in `current`. */
function applyTransition(st: Statements, req: TransitionRequest, current: RunState, at: number): RunRow | undefined {
  const patch = req.patch ?? {};
  const row = st.applyTransition.get({
    id: req.runId,
    from: current,
    to: req.to,
    at,
    reason: req.reason,
    started: req.to === "Running" ? 1 : 0,
    finished: isTerminal(req.to) ? 1 : 0,
    backend: patch.backend ?? null,
    result: jsonOrNull(patch.result),
    cost: patch.costUsd ?? null,
    logRef: patch.logRef ?? null,
    attachment: jsonOrNull(patch.attachment),
  });
  if (row)
    st.insertHistory.run({
      runId: req.runId,
      from: current,
      to: req.to,
      at,
      reason: req.reason,
      ...actorOf(transitionActor(req, row)),
    });
  const pullRequestUrl = pullRequestKey(patch.result?.pullRequestUrl);
  if (row && pullRequestUrl) st.setPullRequestUrl.run(pullRequestUrl, req.runId);
  return row;
}

/** The actor's columns as named parameters. */
function actorOf(actor: Actor | undefined) {
  const [actorKind, actorName, actorFrom] = actorColumns(actor);
  return { actorKind, actorName, actorFrom };
}

/** A new Queued attempt of an ended run's ticket; refused while the run or another attempt is unfinished. */
function retryRun(st: Statements, runId: string, reason: string, at: number, actor: Actor | undefined): TaskRun {
  const row = mustGetRun(st, runId);
  if (!isTerminal(row.state)) throw retryUnfinished(row);
  const attempts = st.runsOfTicket.all(row.source, row.ticket_id);
  const active = attempts.find((a) => !isTerminal(a.state));
  if (active) throw retryWhileActive(runId, active);
  const id = newRunId(at);
  st.insertRun.run(id, row.source, row.ticket_id, (attempts[0]?.attempt ?? 0) + 1, row.engine, at, at, reason, null);
  // A retried follow-up stays one: same review, same branch, following the run it retries.
  if (row.follow_up !== null) st.setFollowUp.run(row.id, row.follow_up, id);
  st.insertHistory.run({ runId: id, from: null, to: "Queued", at, reason, ...actorOf(actor) });
  return toTaskRun(mustGetRun(st, id));
}

/** Marks the run for cancelling; a Queued or AwaitingApproval run is Cancelled at once (no engine to stop). */
function cancelRun(st: Statements, runId: string, reason: string, at: number, actor: Actor | undefined): TaskRun {
  const row = mustGetRun(st, runId);
  if (isTerminal(row.state)) throw cancelFinished(row);
  st.requestCancel.run({ id: runId, at, reason, ...actorOf(actor) });
  if (row.state === "Queued" || row.state === "AwaitingApproval") {
    const patch = { result: cancelledBeforeStart(reason) };
    const req: TransitionRequest = { runId, from: [row.state], to: "Cancelled", reason, patch };
    applyTransition(st, actor === undefined ? req : { ...req, actor }, row.state, at);
  }
  return toTaskRun(mustGetRun(st, runId));
}
