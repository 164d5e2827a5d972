import { isAbsolute, resolve } from "node:path";

/** `path` made absolute against `baseDir` (the config file's folder); undefined stays undefined. */
export function resolveFrom<T extends string | undefined>(baseDir: string, path: T): T {
  if (path === undefined) return path;
  return (isAbsolute(path) ? path : resolve(baseDir, path)) as T;
}
