import * as k8s from "@kubernetes/client-node";
import { Deployment } from "kubernetes-models/apps/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Role, RoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1";
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service, ServiceAccount } from "kubernetes-models/v1";

/** A manifest as rendered: a plain object with at least these fields. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

interface Schema {
  /** kubernetes-models' class: its validate() checks the official JSON schema. */
  model: new (
    data: never,
  ) => { validate(): void };
  /** @kubernetes/client-node's model name, whose attribute map lists every known field. */
  clientType: string;
  namespaced: boolean;
}

/** The kinds our manifests may hold; any other kind is a problem of its own. */
const SCHEMAS: Record<string, Schema> = {
  "v1/ServiceAccount": { model: ServiceAccount, clientType: "V1ServiceAccount", namespaced: true },
  "v1/Service": { model: Service, clientType: "V1Service", namespaced: true },
  "v1/ConfigMap": { model: ConfigMap, clientType: "V1ConfigMap", namespaced: true },
  "v1/Secret": { model: Secret, clientType: "V1Secret", namespaced: true },
  "v1/PersistentVolumeClaim": { model: PersistentVolumeClaim, clientType: "V1PersistentVolumeClaim", namespaced: true },
  "v1/Namespace": { model: Namespace, clientType: "V1Namespace", namespaced: false },
  "apps/v1/Deployment": { model: Deployment, clientType: "V1Deployment", namespaced: true },
  "policy/v1/PodDisruptionBudget": {
    model: PodDisruptionBudget,
    clientType: "V1PodDisruptionBudget",
    namespaced: true,
  },
  "rbac.authorization.k8s.io/v1/Role": { model: Role, clientType: "V1Role", namespaced: true },
  "rbac.authorization.k8s.io/v1/RoleBinding": { model: RoleBinding, clientType: "V1RoleBinding", namespaced: true },
};

/** `apiVersion/kind` of an object, the key of {@link SCHEMAS}. */
export const typeKey = (o: { apiVersion?: unknown; kind?: unknown }) => `${String(o.apiVersion)}/${String(o.kind)}`;

/** Whether objects of this kind live in a namespace; undefined for a kind not known here. */
export function isNamespaced(o: K8sObject): boolean | undefined {
  return SCHEMAS[typeKey(o)]?.namespaced;
}

type AttributeMap = Array<{ baseName: string; type: string }>;
const models = k8s as unknown as Record<string, { getAttributeTypeMap?: () => AttributeMap } | undefined>;

/**
 * Fields the schema does not know, as JSON paths: the official schemas that
 * kubernetes-models compiles let unknown fields through (the API server drops
 * them, or refuses them with strict field validation), so a misspelt
 * `readOnlyRootFileSystem` would pass unseen.
 */
function unknownFields(value: unknown, type: string, path: string): string[] {
  const list = /^Array<(.+)>$/.exec(type);
  if (list) return Array.isArray(value) ? value.flatMap((v, i) => unknownFields(v, list[1]!, `${path}[${i}]`)) : [];
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map)
    return typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([k, v]) => unknownFields(v, map[1]!, `${path}.${k}`))
      : [];
  const attributes = models[type]?.getAttributeTypeMap?.();
  if (attributes === undefined || typeof value !== "object" || value === null) return [];
  const known = new Map(attributes.map((a) => [a.baseName, a.type]));
  return Object.entries(value).flatMap(([key, inner]) => {
    const innerType = known.get(key);
    return innerType === undefined ? [`${path}.${key}`] : unknownFields(inner, innerType, `${path}.${key}`);
  });
}

/** Problems of one object against the official schema, field names included. */
export function schemaProblems(o: K8sObject): string[] {
  const schema = SCHEMAS[typeKey(o)];
  if (schema === undefined) return [`${typeKey(o)} is not a kind these manifests are expected to hold`];
  const problems: string[] = [];
  try {
    new schema.model(o as never).validate();
  } catch (error) {
    problems.push(`schema: ${(error as Error).message}`);
  }
  for (const path of unknownFields(o, schema.clientType, "")) problems.push(`unknown field ${path.slice(1)}`);
  return problems;
}
