export type { ApprovalMessageRef, ApprovalMessageTake, ApprovalMessageUpdate } from "./approval-message.js";
export * from "./postgres/postgres-store.js";
export * from "./run-id.js";
export * from "./sqlite/sqlite-store.js";
export * from "./store.js";
