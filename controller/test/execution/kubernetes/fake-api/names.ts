// The API server's name rules (k8s.io/apimachinery/pkg/util/validation), written
// here on their own so that the fake does not trust the backend's copy.

const LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const ENV_NAME_RE = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const CONFIG_KEY_RE = /^[-._a-zA-Z0-9]+$/;
const QUANTITY_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/;

/** Problems of a DNS-1123 label (Job, namespace, container, volume names). */
export function dnsLabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push("must be no more than 63 characters");
  if (!LABEL_RE.test(value))
    problems.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
    );
  return problems;
}

/** Problems of a DNS-1123 subdomain (ConfigMap, Secret names). */
export function dnsSubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push("must be no more than 253 characters");
  if (!SUBDOMAIN_RE.test(value))
    problems.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    );
  return problems;
}

/** Problems of a label or annotation key: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters. */
export function qualifiedNameProblems(key: string): string[] {
  const slash = key.lastIndexOf("/");
  const [prefix, name] = slash === -1 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  const problems: string[] = [];
  if (prefix !== undefined) problems.push(...dnsSubdomainProblems(prefix).map((p) => `prefix part ${p}`));
  if (name.length === 0) problems.push("name part must be non-empty");
  else if (name.length > 63) problems.push("name part must be no more than 63 characters");
  if (name.length > 0 && !QUALIFIED_NAME_RE.test(name))
    problems.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  return problems;
}

/** Problems of a label value. */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push("must be no more than 63 characters");
  if (!LABEL_VALUE_RE.test(value))
    problems.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  return problems;
}

export function isEnvName(value: string): boolean {
  return ENV_NAME_RE.test(value);
}

export function isConfigKey(value: string): boolean {
  return value.length <= 253 && CONFIG_KEY_RE.test(value);
}

export function isQuantity(value: unknown): boolean {
  return typeof value === "string" && QUANTITY_RE.test(value);
}

/** A quantity in base units, for request ≤ limit checks (binary and decimal suffixes, milli). */
export function quantityValue(value: string): number {
  const match = /^([+-]?[\d.]+(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/.exec(value);
  if (match === null) return Number.NaN;
  const factors: Record<string, number> = {
    "": 1,
    n: 1e-9,
    u: 1e-6,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
  };
  return Number(match[1]) * (factors[match[2] ?? ""] ?? Number.NaN);
}
