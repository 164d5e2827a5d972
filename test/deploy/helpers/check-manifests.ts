import { isNamespaced, type K8sObject, schemaProblems, typeKey } from "./k8s-schemas.js";
import { dns1035Label, dns1123Label, dns1123Subdomain, ianaServiceName, labelKey, labelValue } from "./name-rules.js";

/** Options of {@link checkManifests}. */
export interface CheckOptions {
  /** Secrets the manifests use but do not contain (the user creates them). */
  externalSecrets?: string[];
}

interface Container {
  name: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
}
interface Probe {
  httpGet?: { port: number | string };
  tcpSocket?: { port: number | string };
}
interface PodSpec {
  serviceAccountName?: string;
  containers: Container[];
  volumes?: Array<{
    name: string;
    configMap?: { name: string };
    secret?: { secretName: string };
    persistentVolumeClaim?: { claimName: string };
  }>;
}
interface Workload {
  spec: {
    selector: { matchLabels?: Record<string, string> };
    template: { metadata: { labels?: Record<string, string> }; spec: PodSpec };
  };
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  selector !== undefined
  && Object.keys(selector).length > 0
  && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/**
 * Every problem of a rendered set of manifests, as `Kind/name: problem`
 * lines: the official schema and unknown fields, name rules the schemas miss,
 * one namespace for all, and the references between objects (selectors,
 * named ports, volumes, ConfigMaps, claims, Secrets, the Role and its
 * ServiceAccount), plus objects nothing uses.
 */
export function checkManifests(objects: K8sObject[], options: CheckOptions = {}): string[] {
  const problems: string[] = [];
  const say = (o: K8sObject, problem: string) =>
    problems.push(`${o.kind}/${o.metadata?.name ?? "(no name)"}: ${problem}`);
  const named = (kind: string) => new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));
  const used = new Set<string>();
  const seen = new Set<string>();

  for (const o of objects) {
    schemaProblems(o).forEach((p) => say(o, p));
    const name = o.metadata?.name ?? "";
    const nameProblem =
      o.kind === "Service" ? dns1035Label(name) : o.kind === "Namespace" ? dns1123Label(name) : dns1123Subdomain(name);
    if (nameProblem !== undefined) say(o, nameProblem);
    if (seen.has(`${typeKey(o)}/${name}`)) say(o, "appears twice");
    seen.add(`${typeKey(o)}/${name}`);
    if (isNamespaced(o) && !o.metadata.namespace) say(o, "has no namespace");
    for (const [key, value] of Object.entries(o.metadata.labels ?? {})) {
      for (const p of [labelKey(key), labelValue(value)]) if (p) say(o, p);
    }
  }
  const namespaces = new Set(objects.map((o) => o.metadata.namespace).filter(Boolean));
  if (namespaces.size > 1) problems.push(`objects are spread over namespaces ${[...namespaces].join(", ")}`);

  const workloads = objects.filter((o) => o.kind === "Deployment") as Array<K8sObject & Workload>;
  for (const w of workloads) {
    const pod = w.spec.template.spec;
    if (!matches(w.spec.selector.matchLabels, w.spec.template.metadata.labels))
      say(w, "spec.selector does not match the pod template's labels");
    if (pod.serviceAccountName !== undefined && !named("ServiceAccount").has(pod.serviceAccountName))
      say(w, `uses ServiceAccount ${pod.serviceAccountName}, which is not here`);
    used.add(`ServiceAccount/${pod.serviceAccountName ?? "default"}`);
    const volumes = new Set<string>();
    for (const v of pod.volumes ?? []) {
      const p = dns1123Label(v.name);
      if (p) say(w, `volume ${p}`);
      if (volumes.has(v.name)) say(w, `volume ${v.name} appears twice`);
      volumes.add(v.name);
      if (v.configMap && !named("ConfigMap").has(v.configMap.name))
        say(w, `volume ${v.name} names ConfigMap ${v.configMap.name}, which is not here`);
      if (v.persistentVolumeClaim && !named("PersistentVolumeClaim").has(v.persistentVolumeClaim.claimName))
        say(w, `volume ${v.name} names PersistentVolumeClaim ${v.persistentVolumeClaim.claimName}, which is not here`);
      if (
        v.secret
        && !named("Secret").has(v.secret.secretName)
        && !(options.externalSecrets ?? []).includes(v.secret.secretName)
      )
        say(
          w,
          `volume ${v.name} names Secret ${v.secret.secretName}, which is neither here nor expected from the user`,
        );
      if (v.configMap) used.add(`ConfigMap/${v.configMap.name}`);
      if (v.persistentVolumeClaim) used.add(`PersistentVolumeClaim/${v.persistentVolumeClaim.claimName}`);
    }
    const mounted = new Set<string>();
    for (const c of pod.containers) {
      const p = dns1123Label(c.name);
      if (p) say(w, `container ${p}`);
      const ports = new Set((c.ports ?? []).map((port) => port.name).filter((n): n is string => n !== undefined));
      for (const port of ports) {
        const q = ianaServiceName(port);
        if (q) say(w, q);
      }
      for (const [which, probe] of Object.entries({
        liveness: c.livenessProbe,
        readiness: c.readinessProbe,
        startup: c.startupProbe,
      })) {
        const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
        if (typeof port === "string" && !ports.has(port))
          say(w, `${which} probe of ${c.name} uses port ${port}, which the container does not name`);
      }
      for (const m of c.volumeMounts ?? []) {
        if (!volumes.has(m.name)) say(w, `container ${c.name} mounts volume ${m.name}, which is not in spec.volumes`);
        mounted.add(m.name);
      }
    }
    for (const v of volumes) if (!mounted.has(v)) say(w, `volume ${v} is mounted by no container`);
  }

  const podsFor = (selector: Record<string, string> | undefined) =>
    workloads.filter((w) => matches(selector, w.spec.template.metadata.labels));
  for (const s of objects.filter((o) => o.kind === "Service")) {
    const spec = s.spec as {
      selector?: Record<string, string>;
      ports: Array<{ name?: string; targetPort?: number | string }>;
    };
    const targets = podsFor(spec.selector);
    if (targets.length === 0) say(s, "selects no pod template here");
    for (const port of spec.ports) {
      const nameProblem = port.name === undefined ? undefined : ianaServiceName(port.name);
      if (nameProblem) say(s, nameProblem);
      const target = port.targetPort;
      if (
        typeof target === "string"
        && !targets.some((w) => w.spec.template.spec.containers.some((c) => c.ports?.some((p) => p.name === target)))
      )
        say(s, `targetPort ${target} is a port no selected container names`);
    }
  }
  for (const pdb of objects.filter((o) => o.kind === "PodDisruptionBudget")) {
    const spec = pdb.spec as {
      selector?: { matchLabels?: Record<string, string> };
      minAvailable?: unknown;
      maxUnavailable?: unknown;
    };
    if ((spec.minAvailable === undefined) === (spec.maxUnavailable === undefined))
      say(pdb, "must set exactly one of minAvailable and maxUnavailable");
    if (podsFor(spec.selector?.matchLabels).length === 0) say(pdb, "selects no pod template here");
  }
  for (const rb of objects.filter((o) => o.kind === "RoleBinding")) {
    const roleRef = rb.roleRef as { kind: string; name: string };
    if (roleRef.kind !== "Role" || !named("Role").has(roleRef.name))
      say(rb, `roleRef ${roleRef.kind}/${roleRef.name} is not a Role here`);
    used.add(`Role/${roleRef.name}`);
    for (const subject of (rb.subjects ?? []) as Array<{ kind: string; name: string; namespace?: string }>) {
      if (subject.kind !== "ServiceAccount") continue;
      const account = named("ServiceAccount").get(subject.name);
      if (account === undefined) say(rb, `binds ServiceAccount ${subject.name}, which is not here`);
      else if (subject.namespace !== account.metadata.namespace)
        say(
          rb,
          `binds ServiceAccount ${subject.name} in namespace ${subject.namespace ?? "(none)"}, but it is in ${account.metadata.namespace}`,
        );
    }
  }
  for (const o of objects) {
    if (
      ["ConfigMap", "PersistentVolumeClaim", "Role", "ServiceAccount"].includes(o.kind)
      && !used.has(`${o.kind}/${o.metadata.name}`)
    )
      say(o, "is used by nothing here");
  }
  return problems;
}
