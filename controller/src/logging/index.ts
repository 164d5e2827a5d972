export * from "./buffered-writer.js";
export * from "./json-logger.js";
