import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { checkManifests } from "./helpers/check-manifests.js";
import type { K8sObject } from "./helpers/k8s-schemas.js";
import { findKubectl, renderKustomize } from "./helpers/kustomize.js";
import { type DeploymentObject, one } from "./helpers/manifest-access.js";
import { dns1035Label, dns1123Subdomain, ianaServiceName, labelKey, labelValue } from "./helpers/name-rules.js";

// The checker kustomize.test.ts relies on must be able to fail: each case
// breaks one thing in the rendered base and expects exactly its problem.
const kubectl = findKubectl();
const USER_SECRET = "errand-secrets";

describe("the name rules", () => {
  it("take what Kubernetes takes and refuse what it refuses", () => {
    expect([
      dns1123Subdomain("errand-config-5t2hk7b9f8"),
      dns1035Label("errand"),
      ianaServiceName("webhook"),
      labelKey("app.kubernetes.io/name"),
      labelValue("errand"),
    ]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(dns1123Subdomain("Errand")).toMatch(/not a DNS-1123 subdomain/);
    expect(dns1035Label("9errand")).toMatch(/must start with a letter/);
    expect(ianaServiceName("web--hook")).toMatch(/not an IANA service name/);
    expect(ianaServiceName("8080")).toMatch(/not an IANA service name/);
    expect(labelKey("app.kubernetes.io/")).toMatch(/not a qualified name/);
    expect(labelValue("x".repeat(64))).toMatch(/invalid/);
  });
});

describe.skipIf(!kubectl)("the manifest checker finds, in a broken copy of the rendered base", () => {
  let base: K8sObject[];
  beforeAll(async () => {
    base = await renderKustomize(kubectl!, fileURLToPath(new URL("../../deploy/kustomize/base", import.meta.url)));
  }, 60_000);
  const broken = (change: (objects: K8sObject[]) => void) => {
    const objects = structuredClone(base);
    change(objects);
    return checkManifests(objects, { externalSecrets: [USER_SECRET] });
  };
  const pod = (objects: K8sObject[]) => (one(objects, "Deployment") as DeploymentObject).spec.template.spec;

  it("a misspelt field the schema lets through", () => {
    expect(broken((o) => (pod(o).containers[0]!.securityContext.readOnlyRootFileSystem = true))).toEqual([
      "Deployment/errand: unknown field spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem",
    ]);
  });
  it("a value of the wrong type", () => {
    expect(broken((o) => ((one(o, "Deployment").spec as { replicas: unknown }).replicas = "1")).join("\n")).toMatch(
      /Deployment\/errand: schema: .*replicas must be integer/,
    );
  });
  it("a Service name that is no DNS label, and a port name too long", () => {
    const problems = broken((o) => {
      one(o, "Service").metadata.name = "1-errand";
      pod(o).containers[0]!.ports[1].name = "operations-port-x";
    });
    expect(problems).toContain('Service/1-errand: "1-errand" is not a DNS-1035 label (must start with a letter)');
    expect(problems).toContain('Deployment/errand: port name "operations-port-x" is longer than 15 characters');
  });
  it("a mount without a volume, a probe on an unnamed port, a claim nothing uses", () => {
    const problems = broken((o) => {
      const spec = pod(o);
      spec.volumes = spec.volumes.filter((v) => v.name !== "data");
      spec.containers[0]!.readinessProbe.httpGet.port = "health";
    });
    expect(problems).toEqual([
      "Deployment/errand: readiness probe of errand uses port health, which the container does not name",
      "Deployment/errand: container errand mounts volume data, which is not in spec.volumes",
      "PersistentVolumeClaim/errand-data: is used by nothing here",
    ]);
  });
  it("a budget with both bounds, a binding to another namespace, a Secret nobody creates", () => {
    const problems = broken((o) => {
      (one(o, "PodDisruptionBudget").spec as Record<string, unknown>).minAvailable = 1;
      (one(o, "RoleBinding").subjects as Array<{ namespace: string }>)[0]!.namespace = "default";
      pod(o).volumes.find((v) => v.name === "secrets")!.secret.secretName = "other";
    });
    expect(problems).toEqual([
      "Deployment/errand: volume secrets names Secret other, which is neither here nor expected from the user",
      "PodDisruptionBudget/errand: must set exactly one of minAvailable and maxUnavailable",
      "RoleBinding/errand: binds ServiceAccount errand in namespace default, but it is in errand",
    ]);
  });
});
