import type { Ticket } from "@errand/channel-sdk";
import type { PoolClient } from "pg";
import { toTicket } from "../rows.js";

/**
 * Locks a ticket's row, which orders the intake, retries and follow-ups of one ticket across processes, and reads
 * the ticket as stored now (undefined only if the row is gone, which the runs' foreign key prevents).
 */
export async function lockTicket(client: PoolClient, source: string, id: string): Promise<Ticket | undefined> {
  const { rows } = await client.query<{ payload: string }>(
    "SELECT payload FROM tickets WHERE source = $1 AND id = $2 FOR UPDATE",
    [source, id],
  );
  return rows[0] && toTicket(rows[0].payload);
}
