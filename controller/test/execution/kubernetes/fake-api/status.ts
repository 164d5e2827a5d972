/** A Kubernetes object as JSON: the fake stores what the API server would. */
// biome-ignore lint/suspicious/noExplicitAny: raw API objects are checked by validation, not by types.
export type Raw = any;

/** One cause of an Invalid (422) answer. */
export interface Cause {
  reason:
    | "FieldValueInvalid"
    | "FieldValueRequired"
    | "FieldValueNotSupported"
    | "FieldValueTooLong"
    | "FieldValueDuplicate"
    | "FieldValueForbidden";
  message: string;
  field: string;
}

/** An error the fake answers with: an HTTP status and a `Status` body, as the API server sends them. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details: Raw = undefined,
  ) {
    super(message);
  }

  /** The `Status` object of this error. */
  body(): Raw {
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      ...(this.details === undefined ? {} : { details: this.details }),
      code: this.code,
    };
  }
}

/** What a resource is called in messages and Status details. */
export interface ResourceKind {
  /** The URL's resource name: `jobs`, `pods`. */
  resource: string;
  group: string;
  kind: string;
  apiVersion: string;
}

export const KINDS = {
  jobs: { resource: "jobs", group: "batch", kind: "Job", apiVersion: "batch/v1" },
  pods: { resource: "pods", group: "", kind: "Pod", apiVersion: "v1" },
  configmaps: { resource: "configmaps", group: "", kind: "ConfigMap", apiVersion: "v1" },
  secrets: { resource: "secrets", group: "", kind: "Secret", apiVersion: "v1" },
} satisfies Record<string, ResourceKind>;

/** `jobs.batch "x"`, as the API server names an object in messages. */
export function qualified(kind: ResourceKind, name: string): string {
  return `${kind.resource}${kind.group === "" ? "" : `.${kind.group}`} "${name}"`;
}

export function notFound(kind: ResourceKind, name: string): StatusError {
  return new StatusError(404, "NotFound", `${qualified(kind, name)} not found`, {
    name,
    group: kind.group,
    kind: kind.resource,
  });
}

export function alreadyExists(kind: ResourceKind, name: string): StatusError {
  return new StatusError(409, "AlreadyExists", `${qualified(kind, name)} already exists`, {
    name,
    group: kind.group,
    kind: kind.resource,
  });
}

export function invalid(kind: ResourceKind, name: string, causes: Cause[]): StatusError {
  const list = causes.map((c) => `${c.field}: ${c.message}`).join(", ");
  return new StatusError(
    422,
    "Invalid",
    `${kind.kind}${kind.group === "" ? "" : `.${kind.group}`} "${name}" is invalid: [${list}]`,
    { name, group: kind.group, kind: kind.kind, causes },
  );
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, "BadRequest", message);
}

export function gone(message: string): StatusError {
  return new StatusError(410, "Expired", message);
}
