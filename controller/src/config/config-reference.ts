import { controllerConfigJsonSchema } from "./controller-config-json-schema.js";

type Schema = {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  required?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
};

interface Row {
  key: string;
  /** Branches of a union that have the key, when not all do. */
  only?: string[] | undefined;
  type: string;
  fallback: string;
  meaning: string;
}

/** Marks the generated part of docs/configuration.md. */
export const REFERENCE_BEGIN =
  "<!-- BEGIN GENERATED REFERENCE: controller/scripts/gen-config-docs.mjs writes this part from the schema; do not edit -->";
/** End of the generated part. */
export const REFERENCE_END = "<!-- END GENERATED REFERENCE -->";

/**
 * The key reference of errand.yaml in Markdown, generated from the schema's
 * descriptions: one table per top-level section (key, type, default, meaning).
 */
export function renderConfigReference(schema: Schema = controllerConfigJsonSchema() as Schema): string {
  const parts: string[] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const section = unwrap(raw);
    const rows: Row[] = [];
    walk(section.node, name, rows, false);
    parts.push(
      `### \`${name}\`\n\n${oneLine(section.description ?? "")}\n\n| Key | Type | Default | Meaning |\n|---|---|---|---|\n${rows.map(format).join("\n")}\n`,
    );
  }
  return parts.join("\n");
}

/** `document` with the part between the markers replaced by `reference`. */
export function replaceGeneratedReference(document: string, reference: string): string {
  const begin = document.indexOf(REFERENCE_BEGIN);
  const end = document.indexOf(REFERENCE_END);
  if (begin === -1 || end < begin) throw new Error(`the document has no ${REFERENCE_BEGIN} ... ${REFERENCE_END} part`);
  return `${document.slice(0, begin + REFERENCE_BEGIN.length)}\n\n${reference}\n${document.slice(end)}`;
}

/** The node without its `null` alternative (an empty YAML value), and the description found on either. */
function unwrap(node: Schema): { node: Schema; description: string | undefined } {
  const options = node.anyOf?.filter((o) => o.type !== "null");
  if (options?.length === 1 && options[0] !== undefined && node.anyOf?.length === 2) {
    return { node: options[0], description: node.description ?? options[0].description };
  }
  return { node, description: node.description };
}

function walk(node: Schema, key: string, rows: Row[], required: boolean, description?: string): void {
  if (node.oneOf !== undefined) {
    walkBranches(node.oneOf, key, rows);
    return;
  }
  const isSection = node.type === "object" && node.properties !== undefined && Object.keys(node.properties).length > 0;
  if (!isSection || description !== undefined)
    rows.push({
      key,
      type: typeOf(node),
      fallback: fallbackOf(node, required),
      meaning: description ?? node.description ?? "",
    });
  if (node.type === "object" && node.properties !== undefined) {
    for (const [name, raw] of Object.entries(node.properties)) {
      const child = unwrap(raw);
      walk(child.node, `${key}.${name}`, rows, node.required?.includes(name) ?? false, child.description);
    }
  }
  if (typeof node.additionalProperties === "object" && node.additionalProperties.properties !== undefined) {
    walk(
      node.additionalProperties,
      `${key}.<name>`,
      rows,
      false,
      node.additionalProperties.description ?? "One entry, keyed by a name you choose.",
    );
  }
  if (node.type === "array" && node.items?.type === "object" && node.items.properties !== undefined) {
    for (const [name, raw] of Object.entries(node.items.properties)) {
      const child = unwrap(raw);
      walk(child.node, `${key}[].${name}`, rows, node.items.required?.includes(name) ?? false, child.description);
    }
  }
}

/** A discriminated union: rows every branch has, once; the others marked with the branches that have them. */
function walkBranches(branches: Schema[], key: string, rows: Row[]): void {
  const tags = branches.map((b) => String(Object.values(b.properties ?? {}).find((p) => p.const !== undefined)?.const));
  const merged = new Map<string, Row & { only: string[] }>();
  branches.forEach((branch, i) => {
    const own: Row[] = [];
    walk(branch, key, own, false);
    for (const row of own) {
      // The discriminator: each branch has its own constant; together they are the choice.
      const r = row.type === `\`${tags[i]}\`` ? { ...row, type: tags.map((t) => `\`${t}\``).join(" \\| ") } : row;
      const id = JSON.stringify(r);
      const known = merged.get(id);
      if (known === undefined) merged.set(id, { ...r, only: [tags[i] as string] });
      else known.only.push(tags[i] as string);
    }
  });
  for (const row of merged.values()) rows.push(row.only.length === branches.length ? { ...row, only: undefined } : row);
}

function typeOf(node: Schema): string {
  if (node.anyOf !== undefined) return node.anyOf.map(typeOf).join(" or ");
  if (node.const !== undefined) return `\`${String(node.const)}\``;
  if (node.enum !== undefined) return node.enum.map((v) => `\`${String(v)}\``).join(" \\| ");
  if (node.type === "integer") return `integer${range(node)}`;
  if (node.type === "number")
    return node.exclusiveMinimum !== undefined ? `number > ${node.exclusiveMinimum}` : "number";
  if (node.type === "string") return node.pattern === "^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$" ? "secret name" : "string";
  if (node.type === "array")
    return node.items?.type === "object"
      ? "list of mappings"
      : `list of ${node.items === undefined ? "values" : typeOf(node.items)}`;
  if (node.type === "object") return "mapping";
  return node.type ?? "any";
}

function fallbackOf(node: Schema, required: boolean): string {
  if (node.default !== undefined) return `\`${JSON.stringify(node.default)}\``;
  return required ? "required" : "";
}

function format(row: Row): string {
  const only = row.only === undefined ? "" : ` (${row.only.join(", ")})`;
  return `| \`${row.key}\`${only} | ${row.type} | ${row.fallback} | ${oneLine(row.meaning)} |`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

/** ` 1–10`, ` ≥ 0` or nothing: the bounds a user can reach (zod writes the safe-integer limits otherwise). */
function range(node: Schema): string {
  const min = node.minimum !== undefined && node.minimum > Number.MIN_SAFE_INTEGER ? node.minimum : undefined;
  const max = node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER ? node.maximum : undefined;
  if (min !== undefined && max !== undefined) return ` ${min}–${max}`;
  if (min !== undefined) return ` ≥ ${min}`;
  return max === undefined ? "" : ` ≤ ${max}`;
}
