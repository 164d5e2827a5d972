/**
 * The JSON text a value was parsed from, kept on the value itself under a
 * symbol (non-enumerable: JSON.stringify, Object.keys, spreads and equality
 * checks do not see it). The webhook intake records each event's body here
 * and the store writes that text as the ticket's `rawEvent` instead of
 * serialising the parsed event again: for a 12 KB code host event that
 * `JSON.stringify` was 12 % of the durable intake's CPU.
 *
 * Not a WeakMap beside the value: V8's scavenger keeps a WeakMap's young
 * keys alive, so every parsed event lived until the next full GC; each
 * scavenge of the durable intake then copied 4 MB and promoted 1 MB, and
 * took twice as long (docs/benchmarks.md, "The durable intake").
 */
const TEXT = Symbol("errand.jsonText");

type WithText = { [TEXT]?: string };

/**
 * Records that `value` is `JSON.parse(text)`. The value must not be changed
 * afterwards (the webhook sources only read the events they parse): the
 * text would then no longer describe it. Recording again replaces the
 * text. Returns `value`.
 */
export function rememberJsonText<T extends object>(value: T, text: string): T {
  // A frozen value keeps no text: the store then serialises it, as any other.
  if (Object.isExtensible(value)) Object.defineProperty(value, TEXT, { value: text, configurable: true });
  return value;
}

/** The text `value` was parsed from, when {@link rememberJsonText} recorded one. */
export function recordedJsonText(value: object): string | undefined {
  return (value as WithText)[TEXT];
}
