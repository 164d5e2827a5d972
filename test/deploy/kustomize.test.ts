import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { checkManifests } from "./helpers/check-manifests.js";
import { parseDockerfile } from "./helpers/dockerfile.js";
import type { K8sObject } from "./helpers/k8s-schemas.js";
import { findKubectl, kubectlVersion, renderKustomize } from "./helpers/kustomize.js";
import { type DeploymentObject, type Loose, mountFor, one } from "./helpers/manifest-access.js";

// The kustomize base and overlay, rendered by a real `kubectl kustomize`
// (Debian's package kubernetes-client in CI, kustomize 2.0.3; newer ones
// render the same) and held to the official schemas, name rules, references,
// and to what the image and errand.yaml expect of them.
const root = fileURLToPath(new URL("../..", import.meta.url));
const kustomize = join(root, "deploy/kustomize");
const kubectl = findKubectl();
const required = process.env.ERRAND_REQUIRE_KUBECTL === "1";
const TARGETS = ["base", "overlays/postgres-ha"] as const;
const USER_SECRET = "errand-secrets";

/** resource → verbs of a Role's rules, as `group/resource` keys with sorted verbs. */
function grants(rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const rule of rules) {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources)
        out[`${group}/${resource}`] = [...(out[`${group}/${resource}`] ?? []), ...rule.verbs].sort();
    }
  }
  return out;
}

/**
 * What the controller calls (the kubernetes execution backend and the
 * Kubernetes Secret source): the Role in docs/kubernetes-backend.md, "RBAC",
 * which that backend's authors keep to its calls.
 */
function neededVerbs(): Record<string, string[]> {
  const guide = readFileSync(join(root, "docs/kubernetes-backend.md"), "utf8");
  const docs = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap((m) =>
    parseAllDocuments(m[1]!).map((d) => d.toJSON() as Loose | null),
  );
  const block = docs.find((doc) => doc?.kind === "Role");
  if (block === undefined || block === null)
    throw new Error("docs/kubernetes-backend.md has no Role in a yaml block: the RBAC section moved?");
  return grants(block.rules);
}

const errandYaml = (objects: K8sObject[]) =>
  parse((one(objects, "ConfigMap").data as Record<string, string>)["errand.yaml"]!) as Loose;
const dockerfile = parseDockerfile(readFileSync(join(root, "deploy/docker/Dockerfile"), "utf8"));
const runtimeStage = dockerfile.stages.at(-1)!;
const instruction = (keyword: string) =>
  runtimeStage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

describe.runIf(!kubectl && required)("kubectl", () => {
  it("is installed (ERRAND_REQUIRE_KUBECTL=1): apt-get install kubernetes-client", () => {
    expect(kubectl).toBeDefined();
  });
});

describe.skipIf(!kubectl)(
  `deploy/kustomize rendered by ${kubectl ? kubectlVersion(kubectl) : "kubectl (not installed: skipped)"}`,
  () => {
    const rendered = new Map<string, K8sObject[]>();
    beforeAll(async () => {
      for (const target of TARGETS) rendered.set(target, await renderKustomize(kubectl!, join(kustomize, target)));
    }, 120_000);
    const deployment = (target: string) => one<DeploymentObject>(rendered.get(target)!, "Deployment");

    it.each(TARGETS)("%s: every object passes the official schema, the name rules and its references", (target) => {
      expect(checkManifests(rendered.get(target)!, { externalSecrets: [USER_SECRET] })).toEqual([]);
    });

    it.each(TARGETS)("%s: holds the controller's objects, all in namespace errand", (target) => {
      const objects = rendered.get(target)!;
      const kinds = objects.map((o) => o.kind).sort();
      const expected = [
        "ConfigMap",
        "Deployment",
        "PodDisruptionBudget",
        "Role",
        "RoleBinding",
        "Service",
        "ServiceAccount",
      ];
      expect(kinds).toEqual(target === "base" ? [...expected, "PersistentVolumeClaim"].sort() : expected);
      expect(new Set(objects.map((o) => o.metadata.namespace))).toEqual(new Set(["errand"]));
      for (const o of objects) expect(o.metadata.labels?.["app.kubernetes.io/name"], `${o.kind} label`).toBe("errand");
    });

    it.each(TARGETS)("%s: the Role grants exactly the verbs the controller uses, in its namespace only", (target) => {
      const role = one(rendered.get(target)!, "Role");
      const needed = neededVerbs();
      expect(Object.keys(needed).length).toBeGreaterThan(0);
      expect(grants(role.rules as Parameters<typeof grants>[0])).toEqual(needed);
      expect(rendered.get(target)!.some((o) => o.kind === "ClusterRole" || o.kind === "ClusterRoleBinding")).toBe(
        false,
      );
    });

    it.each(TARGETS)("%s: the pod runs as the image's non-root user, read-only, without privileges", (target) => {
      const pod = deployment(target).spec.template.spec;
      const [uid, gid] = instruction("USER").at(-1)!.split(":").map(Number);
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: uid,
        runAsGroup: gid,
        fsGroup: gid,
        seccompProfile: { type: "RuntimeDefault" },
      });
      expect(pod.containers[0]!.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      });
      expect(mountFor(pod, "/tmp")?.volume.emptyDir).toBeDefined();
      expect(pod.containers[0]!.env).toContainEqual({ name: "HOME", value: "/tmp" });
    });

    it.each(TARGETS)("%s: the container starts the image's command on the ConfigMap's errand.yaml", (target) => {
      const objects = rendered.get(target)!;
      const pod = deployment(target).spec.template.spec;
      const args = pod.containers[0]!.args as string[];
      expect(args).toEqual(JSON.parse(instruction("CMD").at(-1)!));
      expect(pod.containers[0]!.command).toBeUndefined();
      const config = args[args.indexOf("--config") + 1]!;
      const { mount, volume } = mountFor(pod, config)!;
      expect(mount.readOnly).toBe(true);
      expect(volume.configMap.name).toBe(one(objects, "ConfigMap").metadata.name);
      expect(config.slice(mount.mountPath.length + 1)).toBe("errand.yaml");
      // The ConfigMap holds the file as written, comments included.
      expect((one(objects, "ConfigMap").data as Record<string, string>)["errand.yaml"]).toBe(
        readFileSync(join(kustomize, target, "errand.yaml"), "utf8"),
      );
    });

    it.each(TARGETS)("%s: ports, probes, hosts, secrets and writable paths agree with errand.yaml", (target) => {
      const objects = rendered.get(target)!;
      const pod = deployment(target).spec.template.spec;
      const container = pod.containers[0]!;
      const config = errandYaml(objects);
      const port = (name: string) =>
        (container.ports as Array<{ name: string; containerPort: number }>).find((p) => p.name === name)!.containerPort;
      expect(port("webhook")).toBe(config.webhook.port);
      expect(port("ops")).toBe(config.ops.port);
      expect(config.webhook.host).toBe("0.0.0.0");
      expect(config.ops.host).toBe("0.0.0.0");
      expect(instruction("EXPOSE").join(" ").split(/\s+/).map(Number).sort()).toEqual(
        [config.webhook.port, config.ops.port].sort(),
      );
      expect(
        (one(objects, "Service").spec as { ports: Array<{ targetPort: string }> }).ports.map((p) => p.targetPort),
      ).toEqual(["webhook"]);
      expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "ops" });
      expect(container.startupProbe.httpGet).toEqual({ path: "/healthz", port: "ops" });
      expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "ops" });
      const secrets = mountFor(pod, `${config.secrets.dir}/x`)!;
      expect(secrets.mount.mountPath).toBe(config.secrets.dir);
      expect(secrets.volume.secret.secretName).toBe(USER_SECRET);
      const written = [config.execution.local.workspace_dir, config.execution.local.log_dir];
      if (config.store.backend === "sqlite") written.push(config.store.path);
      for (const path of written) {
        const at = mountFor(pod, path);
        expect(at, `${path} is on a volume (the root file system is read-only)`).toBeDefined();
        expect(at!.mount.readOnly, path).toBeUndefined();
      }
      const killGraceSeconds = (config.execution.local.kill_grace_ms ?? 10_000) / 1000;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(config.ops.shutdown_grace_seconds + killGraceSeconds);
    });

    it.each(TARGETS)("%s: runs the image tagged with the controller's version", (target) => {
      const { version } = JSON.parse(readFileSync(join(root, "controller/package.json"), "utf8")) as {
        version: string;
      };
      expect(deployment(target).spec.template.spec.containers[0]!.image).toBe(`errand:${version}`);
    });

    it("base: one replica, replaced not rolled, SQLite and logs on the claim", () => {
      const objects = rendered.get("base")!;
      const { spec } = deployment("base");
      expect(spec.replicas).toBe(1);
      expect(spec.strategy.type).toBe("Recreate");
      const config = errandYaml(objects);
      expect(config.store.backend).toBe("sqlite");
      expect(config.execution.backend).toBe("local");
      const claim = one(objects, "PersistentVolumeClaim");
      for (const path of [config.store.path, config.execution.local.log_dir])
        expect(mountFor(spec.template.spec, path)!.volume.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
      expect((claim.spec as { accessModes: string[] }).accessModes).toEqual(["ReadWriteOnce"]);
      // One pod cannot survive a drain; the budget must not block it for ever.
      expect((one(objects, "PodDisruptionBudget").spec as { maxUnavailable?: number }).maxUnavailable).toBe(1);
    });

    it("postgres-ha: several replicas rolled one by one, PostgreSQL, Jobs in the same namespace, one pod kept through a drain", () => {
      const objects = rendered.get("overlays/postgres-ha")!;
      const { spec } = deployment("overlays/postgres-ha");
      expect(spec.replicas).toBeGreaterThanOrEqual(2);
      expect(spec.replicas).toBeLessThanOrEqual(3);
      expect(spec.strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
      const config = errandYaml(objects);
      expect(config.store).toEqual({ backend: "postgres", url_secret: "errand-db-url" });
      expect(config.execution.backend).toBe("kubernetes");
      expect(config.execution.kubernetes.namespace).toBe(one(objects, "Deployment").metadata.namespace);
      expect(objects.some((o) => o.kind === "PersistentVolumeClaim")).toBe(false);
      expect(spec.template.spec.volumes.some((v) => v.persistentVolumeClaim !== undefined)).toBe(false);
      expect(one(objects, "PodDisruptionBudget").spec).toMatchObject({ minAvailable: 1 });
      expect(config.engines[config.engines.default].image).toBe(spec.template.spec.containers[0]!.image);
    });

    it("an overlay of your own moves every object, and the RoleBinding's subject, to its namespace and image", async () => {
      const dir = mkdtempSync(join(tmpdir(), "errand-overlay-"));
      try {
        // kustomize takes bases by relative path only.
        writeFileSync(
          join(dir, "kustomization.yaml"),
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: team-a\nbases:\n  - ${relative(dir, join(kustomize, "base"))}\nimages:\n  - name: errand\n    newName: registry.example.com/errand\n    newTag: "1.2.3"\n`,
        );
        const objects = await renderKustomize(kubectl!, dir);
        expect(checkManifests(objects, { externalSecrets: [USER_SECRET] })).toEqual([]);
        expect(new Set(objects.map((o) => o.metadata.namespace))).toEqual(new Set(["team-a"]));
        expect(one(objects, "RoleBinding").subjects).toEqual([
          { kind: "ServiceAccount", name: "errand", namespace: "team-a" },
        ]);
        expect(one<DeploymentObject>(objects, "Deployment").spec.template.spec.containers[0]!.image).toBe(
          "registry.example.com/errand:1.2.3",
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  },
);
