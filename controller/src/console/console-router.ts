import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "@errand/channel-sdk";
import { createSecretMask } from "@errand/channel-sdk/logger";
import type { Registry } from "prom-client";
import type { TicketSource } from "../intake/ticket-source.js";
import type { Notifier } from "../notify/notifier-types.js";
import type { Approvals } from "../runs/approvals-port.js";
import type { Store } from "../store/store.js";
import { CONSOLE_CSS, CONSOLE_JS } from "./console-assets.js";
import { type Caller, type ConsoleAuth, createConsoleAuth, crossSiteRefusal, SESSION_COOKIE } from "./console-auth.js";
import { type ConsoleRefusal, refusal } from "./console-refusal.js";
import type { ConsoleConfig } from "./console-schema.js";
import { escapeHtml } from "./html.js";
import { readForm, redirect, send } from "./http-bits.js";
import { loginPage, refusalPage } from "./layout.js";
import { createLogStreams, type ReadSteps } from "./log-stream.js";
import { ACTION_NOTICES, applyRunAction, type RunAction } from "./run-actions.js";
import { runPage } from "./run-page.js";
import { runsPage, runsQuery } from "./runs-page.js";
import { channelsPage, type LeaderView, type PollerView, sourcesPage, storePage } from "./status-pages.js";

/** What the console reads and acts on: the controller's own parts. */
export interface ConsoleDeps {
  config: ConsoleConfig;
  /** The value of `console.token_secret`; undefined leaves the console read-only. */
  token: string | undefined;
  store: Store;
  /** Reads a run's log tail through the scrubbing backend. */
  readSteps: ReadSteps;
  notifier: Notifier | undefined;
  sources: readonly TicketSource[];
  /** The poller of `ticketing`, when one is configured. */
  poller?: PollerView | undefined;
  registry: Registry;
  election: LeaderView | undefined;
  /** The approvals flow; without it, runs cannot be approved or rejected here. */
  approvals?: Approvals | undefined;
  /**
   * Every secret value of the configuration: masked wherever it would appear on a page (a ticket's text may hold
   * one), as written and as escaped for HTML. Log tails come masked from the scrubbing backend already.
   */
  secrets?: readonly string[] | undefined;
  /** Wakes the loop after an action that gives it work. */
  wake?: (() => void) | undefined;
  logger: Logger;
}

/** Serves `/console/...`; `handle` answers false for any other path (the ops server serves those). */
export interface ConsoleHandler {
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

const HTML = "text/html; charset=utf-8";

/** Answers a page: the whole HTML, with any secret value in it masked. */
type Page = (status: number, body: string) => void;
const RUN_PATH = /^\/console\/runs\/(run_[a-z0-9]{26})(?:\/(log|cancel|retry|approve|reject))?$/;

/** The operator's web console, as a request handler for the ops server or a server of its own. */
export function createConsole(deps: ConsoleDeps): ConsoleHandler {
  const auth = createConsoleAuth(deps.config, deps.token);
  const mask = pageMask(deps.secrets ?? []);
  const streams = createLogStreams(deps.store, deps.readSteps);
  const route = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const caller = auth.identify(req);
    const page: Page = (status, body) => send(req, res, status, HTML, mask(body));
    const fail = (r: ConsoleRefusal) => page(r.status, refusalPage(caller, r));
    const path = url.pathname;
    const method = req.method === "HEAD" ? "GET" : req.method;
    if (path === "/console/assets/console.css") return send(req, res, 200, "text/css; charset=utf-8", CONSOLE_CSS);
    if (path === "/console/assets/console.js") return send(req, res, 200, "text/javascript; charset=utf-8", CONSOLE_JS);
    if (path === "/console/login" || path === "/console/logout") return account(req, res, url, caller, auth, page);
    const unread = auth.readRefusal(caller);
    if (unread !== undefined) {
      // With no token configured there is nothing to log in with: the refusal says how to set one.
      if (!auth.actionsEnabled) return fail(unread);
      return page(401, loginPage(caller, nextOf(path + url.search), false, true));
    }
    if (method === "POST") return post(req, res, path, caller, auth, deps, fail);
    if (method !== "GET") return fail(refusal(405, "console_method", `${req.method} is not served here`, "use GET"));
    if (path === "/console" || path === "/console/") return redirect(res, "/console/runs");
    if (path === "/console/runs") return page(200, await runsPage(deps.store, caller, runsQuery(url.searchParams)));
    if (path === "/console/channels") return page(200, await channelsPage(caller, deps.notifier, deps.registry));
    if (path === "/console/sources") return page(200, sourcesPage(caller, deps.sources, deps.poller));
    if (path === "/console/store") return page(200, await storePage(caller, deps.store, deps.election));
    const match = RUN_PATH.exec(path);
    const run = match ? await deps.store.getRun(match[1] as string) : undefined;
    if (match === null || run === undefined || (match[2] !== undefined && match[2] !== "log")) {
      return fail(refusal(404, "console_not_found", `nothing at ${path}`, "start from /console/runs"));
    }
    if (match[2] === "log") return streams.serve(req, res, run);
    const context = {
      caller,
      steps: await deps.readSteps(run).catch(() => undefined),
      actionsEnabled: auth.actionsEnabled,
      approvalsWired: deps.approvals !== undefined,
      notice: noticeOf(url.searchParams.get("done")),
    };
    return page(200, await runPage(deps.store, run, context));
  };
  return {
    handle(req, res) {
      const target = req.url ?? "/";
      if (target !== "/console" && !/^\/console[/?]/.test(target)) return false;
      let url: URL;
      try {
        url = new URL(target, "http://console.invalid");
      } catch {
        send(req, res, 400, "text/plain; charset=utf-8", "bad request: the path is not a URL path\n");
        return true;
      }
      route(req, res, url).catch((error: unknown) => {
        deps.logger.error("console request failed", { path: url.pathname, error });
        if (res.headersSent) return void res.destroy();
        const message = error instanceof Error ? error.message : String(error);
        send(req, res, 500, "text/plain; charset=utf-8", `the console could not answer: ${message}\n`);
      });
      return true;
    },
  };
}

/** A run's action (cancel, retry, approve, reject), then back to the run's page. */
async function post(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  caller: Caller,
  auth: ConsoleAuth,
  deps: ConsoleDeps,
  fail: (r: ConsoleRefusal) => void,
): Promise<void> {
  const match = RUN_PATH.exec(path);
  const action = match?.[2];
  if (match === null || action === undefined || action === "log") {
    return fail(refusal(405, "console_method", `POST is not served at ${path}`, "post to /console/runs/<id>/cancel"));
  }
  const form = await readForm(req);
  if (form === undefined)
    return fail(refusal(413, "console_form_too_large", "the form is too large", "use the console's forms"));
  const refused = auth.actionRefusal(req, caller, form);
  if (refused !== undefined) return fail(refused);
  const outcome = await applyRunAction(deps, match[1] as string, action as RunAction, caller);
  if (!outcome.ok) return fail(outcome.refusal);
  redirect(res, `/console/runs/${outcome.run.id}?done=${outcome.notice}`);
}

/** `/console/login` (the form, and the token it posts) and `/console/logout`. */
async function account(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  caller: Caller,
  auth: ConsoleAuth,
  page: Page,
): Promise<void> {
  const fail = (r: ConsoleRefusal) => page(r.status, refusalPage(caller, r));
  const next = nextOf(url.searchParams.get("next") ?? "/console/runs");
  if (req.method === "GET" || req.method === "HEAD") {
    return page(200, loginPage(caller, next, false, auth.actionsEnabled));
  }
  const crossSite = crossSiteRefusal(req);
  if (crossSite !== undefined) return fail(crossSite);
  const form = (await readForm(req)) ?? new URLSearchParams();
  if (url.pathname === "/console/logout") {
    auth.logout(caller);
    return redirect(res, "/console/runs", {
      "set-cookie": `${SESSION_COOKIE}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0`,
    });
  }
  const session = auth.login(form.get("token") ?? "");
  if (session === undefined)
    return page(401, loginPage(caller, nextOf(form.get("next") ?? ""), true, auth.actionsEnabled));
  redirect(res, nextOf(form.get("next") ?? ""), {
    "set-cookie": `${SESSION_COOKIE}=${session.id}; Path=/console; HttpOnly; SameSite=Strict`,
  });
}

/** The line an action's redirect asks the run's page to show; only the console's own lines. */
function noticeOf(key: string | null): string | undefined {
  return key !== null && Object.hasOwn(ACTION_NOTICES, key)
    ? ACTION_NOTICES[key as keyof typeof ACTION_NOTICES]
    : undefined;
}

/** Masks every form of the secrets (as written, JSON-escaped, percent-encoded) also as escaped for HTML. */
function pageMask(secrets: readonly string[]): (page: string) => string {
  const escaped = createSecretMask(secrets.map(escapeHtml));
  const raw = createSecretMask(secrets);
  return (page) => raw(escaped(page));
}

/** Where to go after logging in: a console path only (never another site). */
function nextOf(target: string): string {
  return /^\/console\/[A-Za-z0-9_\-/?=&.%]*$/.test(target) && !target.startsWith("//") ? target : "/console/runs";
}
