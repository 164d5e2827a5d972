/**
 * @errand/controller: the Errand controller. Today it hosts the webhook
 * intake; the reconciliation loop and plugin supervisor join it later.
 * @packageDocumentation
 */
export * from "./config/index.js";
export * from "./webhook/index.js";
export * from "./logging/index.js";
