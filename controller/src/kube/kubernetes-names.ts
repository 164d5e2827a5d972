import { createHash } from "node:crypto";

/** A DNS-1123 label: what Kubernetes accepts as a Job, namespace or container name. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1123 subdomain: what Kubernetes accepts as a Secret, ConfigMap or service account name. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A label value (empty allowed): at most 63 characters, alphanumeric at both ends. */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
/** A resource quantity such as `500m`, `2`, `1.5Gi`, `1e3`. */
export const QUANTITY = /^\+?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE])?$/;

const MAX_LABEL = 63;
const MAX_SUBDOMAIN = 253;
const JOB_PREFIX = "errand-";

/** True for a DNS-1123 label of at most 63 characters. */
export function isDnsLabel(value: string): boolean {
  return value.length <= MAX_LABEL && DNS_LABEL.test(value);
}

/** True for a DNS-1123 subdomain of at most 253 characters. */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= MAX_SUBDOMAIN && DNS_SUBDOMAIN.test(value);
}

/**
 * The Job name of a run: `errand-` and the run id lowercased, `_` turned
 * into `-` (`run_01j9...` → `errand-run-01j9...`). Run ids made by the store
 * always fit in 63 characters; any other id is made to fit, with a hash of
 * the id so that two ids never share a name.
 */
export function jobNameFor(runId: string): string {
  const plain = `${JOB_PREFIX}${runId.toLowerCase().replace(/_/g, "-")}`;
  if (isDnsLabel(plain)) return plain;
  const hash = shortHash(runId);
  const base = `${JOB_PREFIX}${runId.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}`
    .slice(0, MAX_LABEL - hash.length - 1)
    .replace(/-+$/, "");
  return `${base}-${hash}`;
}

/** The ConfigMap holding a run's prompt and ticket. */
export function inputConfigMapName(jobName: string): string {
  return `${jobName}-input`;
}

/**
 * `text` as a label value: characters a label may not hold become `-`, the
 * ends are trimmed to alphanumerics, and it is cut to 63 characters. Labels
 * are for selecting; the exact text goes in an annotation beside it.
 */
export function toLabelValue(text: string): string {
  const cleaned = text.replace(/[^-A-Za-z0-9_.]+/g, "-").slice(0, MAX_LABEL);
  return cleaned.replace(/^[^A-Za-z0-9]+/, "").replace(/[^A-Za-z0-9]+$/, "");
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}
