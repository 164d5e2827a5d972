/**
 * Just enough of GraphQL to read the SDK's own documents: the operation,
 * its variable definitions, selections and fragments. The fake answers
 * with exactly the fields a document selects, as the real API does, so a
 * field the SDK does not ask for never reaches the adapter.
 */

/** One selection of a selection set. */
export type Selection =
  | { kind: "field"; name: string; alias: string | undefined; selections: Selection[] | undefined }
  | { kind: "spread"; name: string }
  | { kind: "inline"; on: string | undefined; selections: Selection[] };

/** A variable definition: `$first: Int` is { name: "first", type: "Int", required: false }. */
export interface VariableDefinition {
  name: string;
  type: string;
  required: boolean;
}

/** A parsed document with one operation. */
export interface ParsedDocument {
  kind: "query" | "mutation";
  name: string;
  variables: VariableDefinition[];
  selections: Selection[];
  fragments: ReadonlyMap<string, { on: string; selections: Selection[] }>;
}

const TOKEN = /[\s,]+|#[^\n]*|(\.\.\.|[_A-Za-z][_0-9A-Za-z]*|[{}():!$[\]=@]|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (match === null) throw new Error(`unexpected character ${JSON.stringify(text[at])} at ${at}`);
    if (match[1] !== undefined) tokens.push(match[1]);
  }
  return tokens;
}

/** Parses a document with one operation and any number of fragments; throws on anything else. */
export function parseDocument(text: string): ParsedDocument {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => {
    const token = tokens[i++];
    if (token === undefined) throw new Error("unexpected end of document");
    return token;
  };
  const expect = (token: string) => {
    const got = next();
    if (got !== token) throw new Error(`expected ${token}, got ${got}`);
  };
  const skipBalanced = (open: string, close: string) => {
    expect(open);
    for (let depth = 1; depth > 0; ) {
      const token = next();
      if (token === open) depth++;
      if (token === close) depth--;
    }
  };
  const typeRef = (): { type: string; required: boolean } => {
    let type: string;
    if (peek() === "[") {
      next();
      const inner = typeRef();
      expect("]");
      type = `[${inner.type}${inner.required ? "!" : ""}]`;
    } else type = next();
    const required = peek() === "!";
    if (required) next();
    return { type, required };
  };
  const selectionSet = (): Selection[] => {
    expect("{");
    const selections: Selection[] = [];
    while (peek() !== "}") {
      if (peek() === "...") {
        next();
        if (peek() === "on" || peek() === "{") {
          let on: string | undefined;
          if (peek() === "on") {
            next();
            on = next();
          }
          selections.push({ kind: "inline", on, selections: selectionSet() });
        } else selections.push({ kind: "spread", name: next() });
        continue;
      }
      let name = next();
      let alias: string | undefined;
      if (peek() === ":") {
        next();
        alias = name;
        name = next();
      }
      if (peek() === "(") skipBalanced("(", ")");
      if (peek() === "@") throw new Error(`directives are not supported (field ${name})`);
      selections.push({ kind: "field", name, alias, selections: peek() === "{" ? selectionSet() : undefined });
    }
    expect("}");
    return selections;
  };

  let operation: Omit<ParsedDocument, "fragments"> | undefined;
  const fragments = new Map<string, { on: string; selections: Selection[] }>();
  while (i < tokens.length) {
    const keyword = next();
    if (keyword === "fragment") {
      const name = next();
      expect("on");
      fragments.set(name, { on: next(), selections: selectionSet() });
    } else if (keyword === "query" || keyword === "mutation") {
      if (operation !== undefined) throw new Error("more than one operation");
      const name = next();
      const variables: VariableDefinition[] = [];
      if (peek() === "(") {
        next();
        while (peek() !== ")") {
          expect("$");
          const variable = next();
          expect(":");
          variables.push({ name: variable, ...typeRef() });
          if (peek() === "=") throw new Error("default values are not supported");
        }
        next();
      }
      operation = { kind: keyword, name, variables, selections: selectionSet() };
    } else throw new Error(`unexpected ${keyword}`);
  }
  if (operation === undefined) throw new Error("no operation");
  return { ...operation, fragments };
}

/** `value` cut down to `selections`: missing fields become null, lists are mapped, fragments merged. */
export function project(value: unknown, selections: readonly Selection[], doc: ParsedDocument): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => project(item, selections, doc));
  if (typeof value !== "object") throw new Error(`a scalar was given where ${selections.length} fields are selected`);
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const applies = (on: string | undefined) =>
    on === undefined || source.__typename === undefined || source.__typename === on;
  for (const selection of selections) {
    if (selection.kind === "field") {
      const raw = source[selection.name];
      const key = selection.alias ?? selection.name;
      const projected = selection.selections === undefined ? (raw ?? null) : project(raw, selection.selections, doc);
      out[key] = merge(out[key], projected);
    } else {
      const fragment = selection.kind === "spread" ? doc.fragments.get(selection.name) : selection;
      if (fragment === undefined)
        throw new Error(`fragment ${selection.kind === "spread" ? selection.name : ""} is not defined`);
      if (applies(fragment.on)) Object.assign(out, merge(out, project(source, fragment.selections, doc)));
    }
  }
  return out;
}

function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.map((item, k) => merge(item, b[k]));
  if (a === undefined || a === null || typeof a !== "object" || typeof b !== "object" || b === null || Array.isArray(a))
    return b;
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [key, value] of Object.entries(b as Record<string, unknown>)) out[key] = merge(out[key], value);
  return out;
}
