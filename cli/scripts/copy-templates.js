// prepack: ship the repository's templates/ inside the published CLI, where
// src/create/templates.ts looks for them (beside dist/).
import { cp, rm } from "node:fs/promises";

const from = new URL("../../templates/", import.meta.url);
const to = new URL("../templates/", import.meta.url);
await rm(to, { recursive: true, force: true });
await cp(from, to, { recursive: true });
