/** Markup that is safe to put on a page as it is: built by {@link html} (or {@link trusted}), every value in it escaped. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * The console's one escape: text for an element's content or a quoted attribute. Ticket titles, bodies, labels,
 * reasons and log lines come from outside (an attacker may write a ticket), so every value on a page passes here.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A value an {@link html} template accepts: escaped unless it is already {@link SafeHtml}; lists are joined. */
export type HtmlValue = SafeHtml | string | number | undefined | null | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === undefined || value === null || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** Tagged template for markup: the literal parts are the page's own, every interpolated value is escaped. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

/** Markup written by the console itself (its stylesheet link, a fixed snippet): never pass outside text here. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** A link target from outside (a ticket's URL, a pull request's): only http(s) URLs become links, others are text. */
export function safeHref(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link to an outside URL when it is http(s), else the URL as text. */
export function outsideLink(url: string | undefined, label?: string): SafeHtml {
  const href = safeHref(url);
  if (url === undefined || url === "") return html``;
  return href === undefined
    ? html`${label ?? url}`
    : html`<a href="${href}" rel="noopener noreferrer nofollow">${label ?? url}</a>`;
}
