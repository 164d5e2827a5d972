import type { PoolClient } from "pg";
import { repoColumn } from "../repo-column.js";
import { toTicket } from "../rows.js";

/**
 * Locks a ticket's row, which orders the intake, retries and follow-ups of one ticket across processes, and returns
 * the repository a new run of it is on, read from the ticket as stored now (null leaves it to the trigger; a row that
 * is gone, which the runs' foreign key prevents, gives null too).
 */
export async function lockTicketRepo(client: PoolClient, source: string, id: string): Promise<string | null> {
  const { rows } = await client.query<{ payload: string }>(
    "SELECT payload FROM tickets WHERE source = $1 AND id = $2 FOR UPDATE",
    [source, id],
  );
  return rows[0] ? repoColumn(toTicket(rows[0].payload)) : null;
}
