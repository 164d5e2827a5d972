/**
 * First keys of errand's advisory locks (PostgreSQL's two-key form); the
 * second key is `hashtext(current_schema())`, so installations in different
 * schemas of one database never wait for each other. Advisory locks live in
 * one namespace per database: the values spell "ERRM" and "ERRL" to stay
 * clear of other applications' small integers.
 */

/** Held by the transaction that migrates a schema. */
export const MIGRATION_LOCK = 0x4552524d;

/** Held by the session of the controller that runs the reconciliation loop. */
export const LEADER_LOCK = 0x4552524c;
