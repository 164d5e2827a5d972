/** A PostgreSQL server the tests may use, however it was started. */
export interface RunningServer {
  host: string;
  port: number;
  /** A superuser. */
  user: string;
  password: string | undefined;
  /** False when the tests must still write their pg_hba layout (HBA_LINES) through SQL. */
  authConfigured: boolean;
  stop(): Promise<void>;
}

/** A server given by URL (ERRAND_PG_URL): never stopped by the tests. */
export function serverAtUrl(url: string): RunningServer {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username) || "postgres",
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    authConfigured: false,
    stop: async () => {},
  };
}
