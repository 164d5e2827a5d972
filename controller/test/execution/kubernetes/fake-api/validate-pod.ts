import { dnsLabelProblems, dnsSubdomainProblems, isConfigKey, isEnvName, isQuantity, quantityValue } from "./names.js";
import type { Cause, Raw } from "./status.js";

const VOLUME_SOURCES = [
  "configMap",
  "emptyDir",
  "secret",
  "persistentVolumeClaim",
  "projected",
  "hostPath",
  "downwardAPI",
  "ephemeral",
];
const ENV_SOURCES = ["secretKeyRef", "configMapKeyRef", "fieldRef", "resourceFieldRef"];

/** The pod spec rules of the API server's validation that the JSON schema does not express. */
export function podSpecCauses(spec: Raw, at: string): Cause[] {
  const causes: Cause[] = [];
  const add = (field: string, message: string, reason: Cause["reason"] = "FieldValueInvalid") =>
    causes.push({ reason, message, field: `${at}.${field}` });
  const volumes = new Set<string>();
  (spec.volumes ?? []).forEach((volume: Raw, i: number) => {
    const name = String(volume?.name ?? "");
    for (const p of dnsLabelProblems(name)) add(`volumes[${i}].name`, `Invalid value: "${name}": ${p}`);
    if (volumes.has(name)) add(`volumes[${i}].name`, `Duplicate value: "${name}"`, "FieldValueDuplicate");
    volumes.add(name);
    const sources = VOLUME_SOURCES.filter((s) => volume?.[s] !== undefined);
    if (sources.length !== 1) add(`volumes[${i}]`, "Invalid value: must specify exactly 1 volume type");
    if (volume?.configMap !== undefined)
      for (const p of dnsSubdomainProblems(String(volume.configMap.name ?? "")))
        add(`volumes[${i}].configMap.name`, `Invalid value: ${p}`);
    if (volume?.secret !== undefined)
      for (const p of dnsSubdomainProblems(String(volume.secret.secretName ?? "")))
        add(`volumes[${i}].secret.secretName`, `Invalid value: ${p}`);
    const mode = volume?.secret?.defaultMode ?? volume?.configMap?.defaultMode;
    if (mode !== undefined && (!Number.isInteger(mode) || mode < 0 || mode > 0o777))
      add(`volumes[${i}].defaultMode`, `Invalid value: ${mode}: must be a number between 0 and 0777 (octal)`);
    if (volume?.emptyDir?.sizeLimit !== undefined && !isQuantity(volume.emptyDir.sizeLimit))
      add(`volumes[${i}].emptyDir.sizeLimit`, "Invalid value: not a quantity");
  });
  const containers: Raw[] = spec.containers ?? [];
  if (containers.length === 0) add("containers", "Required value", "FieldValueRequired");
  // Init containers and containers share one namespace of names and the same rules.
  const all: Array<[string, Raw]> = [
    ...(spec.initContainers ?? []).map((c: Raw, i: number): [string, Raw] => [`initContainers[${i}]`, c]),
    ...containers.map((c, i): [string, Raw] => [`containers[${i}]`, c]),
  ];
  const names = new Set<string>();
  all.forEach(([c, container]) => {
    const name = String(container?.name ?? "");
    for (const p of dnsLabelProblems(name)) add(`${c}.name`, `Invalid value: "${name}": ${p}`);
    if (names.has(name)) add(`${c}.name`, `Duplicate value: "${name}"`, "FieldValueDuplicate");
    names.add(name);
    if (typeof container?.image !== "string" || container.image.trim() === "")
      add(`${c}.image`, "Required value", "FieldValueRequired");
    const policy = container?.terminationMessagePolicy;
    if (policy !== undefined && policy !== "File" && policy !== "FallbackToLogsOnError")
      add(`${c}.terminationMessagePolicy`, `Unsupported value: "${policy}"`, "FieldValueNotSupported");
    (container?.env ?? []).forEach((env: Raw, j: number) => causes.push(...envCauses(env, `${at}.${c}.env[${j}]`)));
    const mounts = new Set<string>();
    (container?.volumeMounts ?? []).forEach((mount: Raw, j: number) => {
      if (!volumes.has(mount?.name)) add(`${c}.volumeMounts[${j}].name`, `Not found: "${mount?.name}"`);
      const path = String(mount?.mountPath ?? "");
      if (!path.startsWith("/"))
        add(`${c}.volumeMounts[${j}].mountPath`, `Invalid value: "${path}": must be an absolute path`);
      if (mounts.has(path)) add(`${c}.volumeMounts[${j}].mountPath`, `Invalid value: "${path}": must be unique`);
      mounts.add(path);
    });
    causes.push(...resourceCauses(container?.resources ?? {}, `${at}.${c}.resources`));
    const user = container?.securityContext?.runAsUser;
    if (user !== undefined && (!Number.isInteger(user) || user < 0))
      add(`${c}.securityContext.runAsUser`, "Invalid value: must be between 0 and 2147483647");
  });
  const user = spec.securityContext?.runAsUser;
  if (user !== undefined && (!Number.isInteger(user) || user < 0))
    add("securityContext.runAsUser", "Invalid value: must be between 0 and 2147483647");
  if (spec.serviceAccountName !== undefined)
    for (const p of dnsSubdomainProblems(spec.serviceAccountName)) add("serviceAccountName", `Invalid value: ${p}`);
  return causes;
}

function envCauses(env: Raw, at: string): Cause[] {
  const causes: Cause[] = [];
  const name = String(env?.name ?? "");
  if (!isEnvName(name))
    causes.push({
      reason: "FieldValueInvalid",
      message: `Invalid value: "${name}": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit`,
      field: `${at}.name`,
    });
  if (env?.value !== undefined && env?.valueFrom !== undefined) {
    causes.push({
      reason: "FieldValueInvalid",
      message: "Invalid value: may not be specified when `value` is not empty",
      field: `${at}.valueFrom`,
    });
  }
  if (env?.valueFrom !== undefined) {
    const sources = ENV_SOURCES.filter((s) => env.valueFrom[s] !== undefined);
    if (sources.length !== 1)
      causes.push({
        reason: "FieldValueInvalid",
        message: "Invalid value: may not have more than one field specified at a time",
        field: `${at}.valueFrom`,
      });
    const ref = env.valueFrom.secretKeyRef;
    if (ref !== undefined) {
      for (const p of dnsSubdomainProblems(String(ref.name ?? "")))
        causes.push({
          reason: "FieldValueInvalid",
          message: `Invalid value: ${p}`,
          field: `${at}.valueFrom.secretKeyRef.name`,
        });
      if (!isConfigKey(String(ref.key ?? "")))
        causes.push({
          reason: "FieldValueInvalid",
          message: "Invalid value: a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
          field: `${at}.valueFrom.secretKeyRef.key`,
        });
    }
  }
  return causes;
}

function resourceCauses(resources: Raw, at: string): Cause[] {
  const causes: Cause[] = [];
  for (const part of ["requests", "limits"]) {
    for (const [name, value] of Object.entries<Raw>(resources[part] ?? {})) {
      if (!isQuantity(value))
        causes.push({
          reason: "FieldValueInvalid",
          message: `Invalid value: "${String(value)}": quantities must match the regular expression`,
          field: `${at}.${part}[${name}]`,
        });
    }
  }
  for (const [name, request] of Object.entries<Raw>(resources.requests ?? {})) {
    const limit = resources.limits?.[name];
    if (
      limit !== undefined
      && isQuantity(request)
      && isQuantity(limit)
      && quantityValue(request) > quantityValue(limit)
    ) {
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: "${request}": must be less than or equal to ${name} limit of ${limit}`,
        field: `${at}.requests[${name}]`,
      });
    }
  }
  return causes;
}
