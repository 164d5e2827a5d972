import { badRequest } from "./status.js";

type Requirement = { key: string; op: "=" | "!=" | "exists" | "!exists"; value: string };

/**
 * Parses the equality-based label selectors the API server accepts
 * (`a=b`, `a==b`, `a!=b`, `a`, `!a`, comma-separated) and returns a
 * matcher; anything else is a 400, as the real server answers it.
 */
export function parseSelector(selector: string | null): (labels: Record<string, string> | undefined) => boolean {
  if (selector === null || selector.trim() === "") return () => true;
  const requirements: Requirement[] = selector.split(",").map((part) => {
    const text = part.trim();
    const match = /^([A-Za-z0-9./_-]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)$/.exec(text);
    if (match !== null)
      return { key: match[1] as string, op: match[2] === "!=" ? "!=" : "=", value: match[3] as string };
    if (/^![A-Za-z0-9./_-]+$/.test(text)) return { key: text.slice(1), op: "!exists", value: "" };
    if (/^[A-Za-z0-9./_-]+$/.test(text)) return { key: text, op: "exists", value: "" };
    throw badRequest(`unable to parse requirement: ${JSON.stringify(text)}`);
  });
  return (labels = {}) =>
    requirements.every((r) => {
      const value = labels[r.key];
      if (r.op === "exists") return value !== undefined;
      if (r.op === "!exists") return value === undefined;
      if (r.op === "=") return value === r.value;
      return value !== r.value;
    });
}
