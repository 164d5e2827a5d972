export * from "./dedupe-store.js";
export * from "./memory-dedupe-store.js";
