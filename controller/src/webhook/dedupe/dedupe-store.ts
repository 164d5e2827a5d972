/** What {@link DedupeStore.claim} found. */
export type ClaimResult = "new" | "duplicate" | "in_flight";

/**
 * Remembers delivery ids so a redelivered event is not handed on twice.
 * The controller may plug in a durable store; every method may be async.
 *
 * Protocol: `claim` before handing tickets on; `commit` once the handler
 * resolved (the id is then a duplicate until it expires), unless the
 * handler reported that it committed the id itself with the tickets
 * (`TicketHandlerResult.deliveryCommitted`); `release` when the handler
 * failed, so the sender's retry goes through (also after such a commit,
 * when a later handler of the delivery failed).
 */
export interface DedupeStore {
  claim(key: string): ClaimResult | Promise<ClaimResult>;
  commit(key: string): void | Promise<void>;
  release(key: string): void | Promise<void>;
}
