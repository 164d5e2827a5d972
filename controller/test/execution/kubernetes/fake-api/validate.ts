import { Job } from "kubernetes-models/batch/v1";
import { ConfigMap, Pod, Secret } from "kubernetes-models/v1";
import { dnsLabelProblems, dnsSubdomainProblems, labelValueProblems, qualifiedNameProblems } from "./names.js";
import { type Cause, invalid, type Raw, type ResourceKind, StatusError } from "./status.js";
import { podSpecCauses } from "./validate-pod.js";

const MAX_ANNOTATIONS_BYTES = 256 * 1024;
const MAX_CONFIGMAP_BYTES = 1024 * 1024;

/**
 * Validates a manifest as the API server would: the official schema
 * (kubernetes-models, which checks types and required fields but accepts
 * invalid names), then the rules the schema misses: names, label syntax,
 * annotation size, ownerReferences, and the pod spec's own rules. Throws a
 * 422 StatusError listing every cause.
 */
export function validateManifest(kind: ResourceKind, body: Raw, urlNamespace: string): void {
  const name = typeof body?.metadata?.name === "string" ? body.metadata.name : "";
  if (body?.kind !== kind.kind || body?.apiVersion !== kind.apiVersion) {
    throw new StatusError(
      400,
      "BadRequest",
      `the body is a ${body?.apiVersion ?? "?"}/${body?.kind ?? "?"}, not a ${kind.apiVersion}/${kind.kind}`,
    );
  }
  if (body.metadata?.namespace !== undefined && body.metadata.namespace !== urlNamespace) {
    throw new StatusError(
      400,
      "BadRequest",
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  }
  const causes: Cause[] = [...schemaCauses(kind, body)];
  if (name === "")
    causes.push({
      reason: "FieldValueRequired",
      message: "Required value: name or generateName is required",
      field: "metadata.name",
    });
  else {
    const problems = kind.kind === "Job" ? dnsLabelProblems(name) : dnsSubdomainProblems(name);
    for (const p of problems)
      causes.push({ reason: "FieldValueInvalid", message: `Invalid value: "${name}": ${p}`, field: "metadata.name" });
  }
  causes.push(...metadataCauses(body.metadata ?? {}, "metadata"));
  if (kind.kind === "Job") causes.push(...jobCauses(body));
  if (kind.kind === "Pod") causes.push(...podSpecCauses(body.spec ?? {}, "spec"));
  if (kind.kind === "ConfigMap") causes.push(...configMapCauses(body));
  if (causes.length > 0) throw invalid(kind, name, causes);
}

function schemaCauses(kind: ResourceKind, body: Raw): Cause[] {
  try {
    if (kind.kind === "Job") new Job(body).validate();
    else if (kind.kind === "Pod") new Pod(body).validate();
    else if (kind.kind === "ConfigMap") new ConfigMap(body).validate();
    else if (kind.kind === "Secret") new Secret(body).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: Array<{ instancePath: string; message?: string }> }).errors ?? [
      { instancePath: "", message: (error as Error).message },
    ];
    return errors.map((e) => ({
      reason: "FieldValueInvalid",
      message: `Invalid value: ${e.message ?? "invalid"}`,
      field: fieldOf(e.instancePath),
    }));
  }
}

/** `/spec/template/spec/containers/0/image` → `spec.template.spec.containers[0].image`. */
function fieldOf(pointer: string): string {
  return pointer
    .split("/")
    .filter(Boolean)
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === "" ? part : `${path}.${part}`), "");
}

/** Labels, annotations and ownerReferences of an object (or a pod template). */
export function metadataCauses(metadata: Raw, at: string): Cause[] {
  const causes: Cause[] = [];
  for (const [key, value] of Object.entries<Raw>(metadata.labels ?? {})) {
    for (const p of qualifiedNameProblems(key))
      causes.push({ reason: "FieldValueInvalid", message: `Invalid value: "${key}": ${p}`, field: `${at}.labels` });
    const problems = typeof value === "string" ? labelValueProblems(value) : ["must be a string"];
    for (const p of problems)
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: "${String(value)}": ${p}`,
        field: `${at}.labels`,
      });
  }
  let size = 0;
  for (const [key, value] of Object.entries<Raw>(metadata.annotations ?? {})) {
    for (const p of qualifiedNameProblems(key))
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: "${key}": ${p}`,
        field: `${at}.annotations`,
      });
    size += key.length + String(value).length;
  }
  if (size > MAX_ANNOTATIONS_BYTES)
    causes.push({
      reason: "FieldValueTooLong",
      message: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes`,
      field: `${at}.annotations`,
    });
  (metadata.ownerReferences ?? []).forEach((ref: Raw, i: number) => {
    for (const field of ["apiVersion", "kind", "name", "uid"]) {
      if (typeof ref?.[field] !== "string" || ref[field] === "")
        causes.push({
          reason: "FieldValueRequired",
          message: "Required value",
          field: `${at}.ownerReferences[${i}].${field}`,
        });
    }
  });
  return causes;
}

function jobCauses(job: Raw): Cause[] {
  const spec = job.spec ?? {};
  const causes: Cause[] = [];
  const nonNegative = (field: string, positive = false) => {
    const value = spec[field];
    if (value !== undefined && (!Number.isInteger(value) || value < (positive ? 1 : 0))) {
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: ${value}: must be ${positive ? "greater than" : "greater than or equal to"} 0`,
        field: `spec.${field}`,
      });
    }
  };
  nonNegative("backoffLimit");
  nonNegative("ttlSecondsAfterFinished");
  nonNegative("activeDeadlineSeconds", true);
  nonNegative("completions");
  nonNegative("parallelism");
  const template = spec.template ?? {};
  causes.push(...metadataCauses(template.metadata ?? {}, "spec.template.metadata"));
  const policy = template.spec?.restartPolicy;
  if (policy !== "Never" && policy !== "OnFailure") {
    causes.push({
      reason: "FieldValueNotSupported",
      message: `Unsupported value: "${policy ?? ""}": supported values: "OnFailure", "Never"`,
      field: "spec.template.spec.restartPolicy",
    });
  }
  causes.push(...podSpecCauses(template.spec ?? {}, "spec.template.spec"));
  return causes;
}

function configMapCauses(configMap: Raw): Cause[] {
  const causes: Cause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries<Raw>(configMap.data ?? {})) {
    if (!/^[-._a-zA-Z0-9]+$/.test(key) || key.length > 253) {
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: "${key}": a valid config key must consist of alphanumeric characters, '-', '_' or '.'`,
        field: "data",
      });
    }
    size += Buffer.byteLength(String(value));
  }
  if (size > MAX_CONFIGMAP_BYTES)
    causes.push({
      reason: "FieldValueTooLong",
      message: `Too long: must have at most ${MAX_CONFIGMAP_BYTES} bytes`,
      field: "data",
    });
  return causes;
}
