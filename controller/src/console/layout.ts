import type { Caller } from "./console-auth.js";
import type { ConsoleRefusal } from "./console-refusal.js";
import { html, type SafeHtml } from "./html.js";

/** A whole console page: the navigation, then `body`. */
export function layout(title: string, caller: Caller, body: SafeHtml): string {
  const account =
    caller.via === "cookie"
      ? html`<form class="inline" method="post" action="/console/logout">
          <input type="hidden" name="csrf" value="${caller.session?.csrf}"><button>Log out ${caller.label}</button>
        </form>`
      : caller.label === undefined
        ? html`<a href="/console/login">Log in</a>`
        : html`<span class="muted">${caller.label}</span>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · errand console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<header>
  <strong>errand</strong>
  <a href="/console/runs">Runs</a>
  <a href="/console/channels">Channels</a>
  <a href="/console/sources">Sources</a>
  <a href="/console/store">Store</a>
  <span class="grow"></span>
  ${account}
</header>
<main>
${body}
</main>
</body>
</html>
`.text;
}

/** The page of a refused or failed request: what was wrong and how to fix it. */
export function refusalPage(caller: Caller, r: ConsoleRefusal): string {
  return layout(
    "Refused",
    caller,
    html`<h1>Refused</h1>
<div class="notice error"><p><strong>${r.message}</strong></p><p>${r.fix}</p><p class="muted">code ${r.code}</p></div>`,
  );
}

/** The login form: the operator token, sent once, kept as an HttpOnly, SameSite=Strict session cookie. */
export function loginPage(caller: Caller, next: string, failed: boolean, actionsEnabled: boolean): string {
  const body = actionsEnabled
    ? html`<h1>Log in</h1>
${failed ? html`<div class="notice error">That is not the operator token.</div>` : ""}
<form method="post" action="/console/login" class="filters">
  <input type="hidden" name="next" value="${next}">
  <label>Operator token <input type="password" name="token" autocomplete="current-password" required></label>
  <button>Log in</button>
</form>`
    : html`<h1>Log in</h1>
<div class="notice">No operator token is configured, so there is nothing to log in with: the console is read-only.
Set <code>console.token_secret</code> to the name of a secret holding a token to enable actions.</div>`;
  return layout("Log in", caller, body);
}
