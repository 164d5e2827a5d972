import { ControllerError, ControllerErrorCode } from "../errors.js";

const WHY: Readonly<Record<string, string>> = {
  EADDRINUSE: "another process listens there",
  EACCES: "this user may not listen there (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "the address is not one of this machine's",
};

/**
 * A listen failure in words that name the setting to change, or the error
 * itself when it is not one a setting fixes.
 */
export function listenError(error: unknown, what: string, key: string, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === undefined || WHY[code] === undefined) return error;
  return new ControllerError(
    ControllerErrorCode.InvalidConfig,
    `the ${what} cannot listen on ${host}:${port} (${code}: ${WHY[code]})`,
    {
      cause: error,
      hint: `set ${key} to a free port (0 picks one), or stop the other process`,
    },
  );
}
