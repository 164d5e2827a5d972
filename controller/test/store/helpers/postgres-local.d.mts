import type { RunningServer } from "./running-server.js";

/** The test layout of client authentication: passwords for roles in password_required, trust for the rest. */
export declare const HBA_LINES: readonly string[];

/** Starts a throwaway server with the initdb and pg_ctl in `bin` (see postgres-local.mjs), `extraSettings` added to its command line. */
export declare function startLocalPostgres(
  bin: string,
  extraSettings?: string,
): Promise<RunningServer & { socketDir: string; pid: number }>;
