import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type ConsoleRefusal, refusal } from "./console-refusal.js";
import type { ConsoleConfig } from "./console-schema.js";

/** Name of the session cookie; `__Host-` needs Secure, which plain-http loopback cannot send, so it is not used. */
export const SESSION_COOKIE = "errand_console";
/** A login lasts this long; then the token is entered again. */
const SESSION_MS = 12 * 60 * 60 * 1000;
/** Sessions kept at most: the oldest is forgotten first, so logins cannot grow the controller's memory. */
const MAX_SESSIONS = 1000;

/** A browser logged in with the token: its cookie names it, and its forms carry `csrf`. */
export interface Session {
  id: string;
  csrf: string;
  expiresAt: number;
}

/** Who is asking: the token's holder (by bearer header or session cookie) or nobody known, and from where. */
export interface Caller {
  /** The token label when the request proved it holds the token. */
  label: string | undefined;
  via: "bearer" | "cookie" | undefined;
  session: Session | undefined;
  /** The peer's address, as recorded with an action. */
  from: string;
  loopback: boolean;
}

/** The console's access rules: who reads, who acts, and the sessions of logged-in browsers. */
export interface ConsoleAuth {
  identify(req: IncomingMessage): Caller;
  /** Undefined when `caller` may read the pages, else why not. */
  readRefusal(caller: Caller): ConsoleRefusal | undefined;
  /** Undefined when `caller` may act with this form (its `csrf` field), else why not. */
  actionRefusal(req: IncomingMessage, caller: Caller, form: URLSearchParams): ConsoleRefusal | undefined;
  /** A new session when `token` is the operator token. */
  login(token: string): Session | undefined;
  logout(caller: Caller): void;
  /** True when actions are possible at all (a token is configured). */
  readonly actionsEnabled: boolean;
}

const digest = (text: string) => createHash("sha256").update(text).digest();
const isLoopback = (address: string) =>
  address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");

/** Access for `config`, with `token` the value of `console.token_secret` (undefined: read-only console). */
export function createConsoleAuth(config: ConsoleConfig, token: string | undefined): ConsoleAuth {
  const sessions = new Map<string, Session>();
  // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first differing byte.
  const tokenDigest = token === undefined || token === "" ? undefined : digest(token);
  const holdsToken = (candidate: string) =>
    tokenDigest !== undefined && candidate !== "" && timingSafeEqual(digest(candidate), tokenDigest);
  const sessionOf = (req: IncomingMessage): Session | undefined => {
    const id = cookie(req, SESSION_COOKIE);
    const session = id === undefined ? undefined : sessions.get(id);
    if (session === undefined || session.expiresAt > Date.now()) return session;
    sessions.delete(session.id);
    return undefined;
  };
  return {
    actionsEnabled: tokenDigest !== undefined,
    identify(req) {
      const from = req.socket.remoteAddress ?? "unknown";
      const base = { from, loopback: isLoopback(from) };
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
      if (bearer !== undefined && holdsToken(bearer))
        return { ...base, label: config.tokenLabel, via: "bearer", session: undefined };
      const session = tokenDigest === undefined ? undefined : sessionOf(req);
      if (session !== undefined) return { ...base, label: config.tokenLabel, via: "cookie", session };
      return { ...base, label: undefined, via: undefined, session: undefined };
    },
    readRefusal(caller) {
      if (caller.label !== undefined || config.readAccess === "open") return undefined;
      if (config.readAccess === "loopback" && caller.loopback) return undefined;
      return refusal(
        401,
        "console_login_required",
        `reading the console from ${caller.from} needs the operator token (console.read_access is ${config.readAccess})`,
        tokenDigest === undefined
          ? "set console.token_secret to the name of a secret holding a token, then log in with it"
          : "log in with the operator token, or send it as an Authorization: Bearer header",
      );
    },
    actionRefusal(req, caller, form) {
      return actionRefusal(req, caller, form, tokenDigest !== undefined);
    },
    login(candidate) {
      if (!holdsToken(candidate)) return undefined;
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      const session = { id: randomId(), csrf: randomId(), expiresAt: Date.now() + SESSION_MS };
      sessions.set(session.id, session);
      return session;
    },
    logout(caller) {
      if (caller.session !== undefined) sessions.delete(caller.session.id);
    },
  };
}

/**
 * Actions need the token (bearer or session), and a browser's action must come from a console page: the session's
 * CSRF token in the form, and neither an Origin nor a Sec-Fetch-Site that names another site or origin.
 */
function actionRefusal(
  req: IncomingMessage,
  caller: Caller,
  form: URLSearchParams,
  actionsEnabled: boolean,
): ConsoleRefusal | undefined {
  const crossSite = crossSiteRefusal(req);
  if (crossSite !== undefined) return crossSite;
  if (!actionsEnabled) {
    return refusal(
      403,
      "console_read_only",
      "this console is read-only: no operator token is configured",
      "set console.token_secret to the name of a secret holding a token (e.g. errand-console-token), restart, and log in with it",
    );
  }
  if (caller.label === undefined) {
    return refusal(
      401,
      "console_token_required",
      "cancel, retry, approve and reject need the operator token",
      "log in at /console/login, or send the token as an Authorization: Bearer header",
    );
  }
  if (caller.via === "cookie" && !sameText(form.get("csrf") ?? "", caller.session?.csrf ?? "")) {
    return refusal(
      403,
      "console_csrf_mismatch",
      "the form's CSRF token does not match this session",
      "reload the page and submit the form again",
    );
  }
  return undefined;
}

/** Refuses a request a page of another origin sent (a cross-site form post), by what browsers say of it. */
export function crossSiteRefusal(req: IncomingMessage): ConsoleRefusal | undefined {
  const site = req.headers["sec-fetch-site"];
  const origin = req.headers.origin;
  const host = req.headers.host;
  const sameOrigin = origin === undefined || origin === `http://${host}` || origin === `https://${host}`;
  if ((site === undefined || site === "same-origin" || site === "none") && sameOrigin) return undefined;
  return refusal(
    403,
    "console_cross_site",
    `refused a request sent from another site or origin (Origin ${origin ?? "none"}, Sec-Fetch-Site ${site ?? "none"})`,
    "use the console's own pages to act; a reverse proxy must keep the Host header the browser sent",
  );
}

function sameText(a: string, b: string): boolean {
  return a !== "" && b !== "" && timingSafeEqual(digest(a), digest(b));
}

function randomId(): string {
  return randomBytes(24).toString("base64url");
}

/** The value of cookie `name` in the request, if any. */
function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
