export * from "./config-error.js";
export * from "./load-config.js";
export * from "./parse-webhook-config.js";
export * from "./secret-ref.js";
export * from "./webhook-config.js";
