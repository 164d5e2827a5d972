export * from "./buffered-writer.js";
