import { requireMs, requireText } from "../input-checks.js";
import type { Leadership, LeadOptions } from "../store.js";
import type { SqliteContext } from "./statements.js";

/**
 * The loop's leadership on SQLite: a lease row. Taking it is one IMMEDIATE
 * transaction, so two processes never both see it free; the holder renews it
 * before it ends, and a holder that died loses it when it does.
 */
export function createLeaderOps({ db, now }: SqliteContext): {
  tryLead(owner: string, ttlMs: number, options?: LeadOptions): Leadership;
  resign(owner: string): void;
} {
  const read = db.prepare<[], { owner: string; expires_at: number }>(
    "SELECT owner, expires_at FROM leader WHERE id = 1",
  );
  const take = db.prepare<{ owner: string; expires: number }>(
    "INSERT INTO leader (id, owner, expires_at) VALUES (1, @owner, @expires) ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at",
  );
  const give = db.prepare<{ owner: string }>("DELETE FROM leader WHERE id = 1 AND owner = @owner");
  const attempt = db.transaction((owner: string, ttlMs: number, replacing: string | undefined): Leadership => {
    const at = now();
    const row = read.get();
    if (row !== undefined && row.owner !== owner && row.owner !== replacing && row.expires_at > at)
      return { leading: false, leader: row.owner };
    take.run({ owner, expires: at + ttlMs });
    return { leading: true, leader: owner };
  });
  return {
    tryLead(owner, ttlMs, options = {}) {
      requireText(owner, "owner");
      requireMs(ttlMs, "ttlMs");
      return attempt.immediate(owner, ttlMs, options.replacing);
    },
    resign(owner) {
      requireText(owner, "owner");
      give.run({ owner });
    },
  };
}
