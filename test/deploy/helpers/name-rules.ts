// Kubernetes name rules (k8s.io/apimachinery/pkg/util/validation), which the
// JSON schemas do not carry: each returns a problem, or undefined when valid.

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** RFC 1123 label: container, volume and namespace names. */
export function dns1123Label(value: string): string | undefined {
  if (value.length > 63) return `"${value}" is longer than 63 characters`;
  return LABEL.test(value)
    ? undefined
    : `"${value}" is not a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit)`;
}

/** RFC 1123 subdomain: most object names. */
export function dns1123Subdomain(value: string): string | undefined {
  if (value.length > 253) return `"${value}" is longer than 253 characters`;
  return value.split(".").every((part) => part.length <= 63 && LABEL.test(part))
    ? undefined
    : `"${value}" is not a DNS-1123 subdomain`;
}

/** RFC 1035 label: Service names (they become DNS names and environment variables). */
export function dns1035Label(value: string): string | undefined {
  if (value.length > 63) return `"${value}" is longer than 63 characters`;
  return LABEL_1035.test(value) ? undefined : `"${value}" is not a DNS-1035 label (must start with a letter)`;
}

/** IANA service name: container and Service port names. */
export function ianaServiceName(value: string): string | undefined {
  if (value.length > 15) return `port name "${value}" is longer than 15 characters`;
  if (!LABEL.test(value) || value.includes("--") || !/[a-z]/.test(value))
    return `port name "${value}" is not an IANA service name`;
  return undefined;
}

/** A label or annotation key: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters. */
export function labelKey(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const [prefix, name] = slash === -1 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== undefined && dns1123Subdomain(prefix) !== undefined) return `label key "${key}" has an invalid prefix`;
  if (name.length === 0 || name.length > 63 || !QUALIFIED.test(name))
    return `label key "${key}" is not a qualified name`;
  return undefined;
}

/** A label value: empty, or at most 63 characters of letters, digits, '-', '_' and '.', starting and ending alphanumeric. */
export function labelValue(value: string): string | undefined {
  if (value === "") return undefined;
  if (value.length > 63 || !QUALIFIED.test(value)) return `label value "${value}" is invalid`;
  return undefined;
}
