import { isAbsolute, resolve } from "node:path";

/** `path` made absolute against `baseDir` (the config file's folder); undefined stays undefined. */
export function resolveFrom<T extends string | undefined>(baseDir: string, path: T): T {
  if (path === undefined) return path;
  return (isAbsolute(path) ? path : resolve(baseDir, path)) as T;
}

/**
 * `command` with a relative executable path (one with a slash, `./agent.sh`)
 * made absolute against `baseDir`: the process runs in another folder, where
 * a relative path would name nothing. A bare name (`node`) is left to PATH.
 */
export function commandFrom(baseDir: string, command: string[]): string[] {
  const [first, ...rest] = command;
  return first?.includes("/") ? [resolveFrom(baseDir, first), ...rest] : command;
}
