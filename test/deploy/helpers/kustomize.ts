import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { parseAllDocuments } from "yaml";
import type { K8sObject } from "./k8s-schemas.js";

const run = promisify(execFile);

/**
 * The kubectl to render with: $ERRAND_KUBECTL, else `kubectl` on PATH (CI
 * installs Debian's, package kubernetes-client); undefined when there is none.
 */
export function findKubectl(): string | undefined {
  const candidate = process.env.ERRAND_KUBECTL ?? "kubectl";
  try {
    execFileSync(candidate, ["version", "--client"], { stdio: "ignore", timeout: 30_000 });
    return candidate;
  } catch {
    return undefined;
  }
}

/** kubectl's version and, when it prints it, its kustomize's (kubectl 1.20, with kustomize 2.0.3, does not), for test titles. */
export function kubectlVersion(kubectl: string): string {
  const text = execFileSync(kubectl, ["version", "--client"], { encoding: "utf8", timeout: 30_000 });
  const client =
    /GitVersion:"([^"]+)"/.exec(text)?.[1] ?? /Client Version:\s*(\S+)/.exec(text)?.[1] ?? "unknown version";
  const kustomize = /Kustomize Version:\s*(\S+)/.exec(text)?.[1];
  return `kubectl ${client}${kustomize ? `, kustomize ${kustomize}` : ""}`;
}

/**
 * `kubectl kustomize dir`, parsed: every document must be an object with a
 * kind (kustomize 2.0.3 leaves an empty `{}` where a patch deleted an object).
 */
export async function renderKustomize(kubectl: string, dir: string): Promise<K8sObject[]> {
  const { stdout } = await run(kubectl, ["kustomize", dir], { maxBuffer: 16 * 1024 * 1024, timeout: 60_000 });
  return parseAllDocuments(stdout).map((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`document ${i + 1} of ${dir}: ${doc.errors[0]!.message}`);
    const value = doc.toJSON() as K8sObject | null;
    if (value === null || typeof value !== "object" || typeof value.kind !== "string") {
      throw new Error(`document ${i + 1} of ${dir} is not an object with a kind: ${JSON.stringify(value)}`);
    }
    return value;
  });
}
