import Database from "better-sqlite3";

/** A migration step as both stores list them. */
interface Step {
  version: number;
  name: string;
  sql: string;
}

/**
 * Writes a SQLite store file as an older errand left it: only `steps` applied and recorded, then `rows` written.
 * Opening it with today's store runs the later steps: the upgrade under test.
 */
export function writeOlderSqliteStore(path: string, steps: readonly Step[], rows: string): void {
  const db = new Database(path);
  try {
    db.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)");
    for (const step of steps) {
      db.exec(step.sql);
      record.run(step.version, step.name);
    }
    db.exec(rows);
  } finally {
    db.close();
  }
}

/** The SQL that makes `schema` a PostgreSQL store as an older errand left it: only `steps` applied and recorded, then `rows`. */
export function olderPostgresSchemaSql(schema: string, steps: readonly Step[], rows: string): string {
  const applied = steps.map(
    (s) =>
      `${s.sql}; INSERT INTO errand_migrations (version, name, applied_at) VALUES (${s.version}, '${s.name.replaceAll("'", "''")}', 0);`,
  );
  return `BEGIN; SET LOCAL search_path TO ${schema};
    CREATE TABLE errand_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);
    ${applied.join("\n")}
    ${rows}
    COMMIT;`;
}
