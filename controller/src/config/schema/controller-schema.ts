import type * as z from "zod";
import { consoleSection } from "../../console/console-schema.js";
import { enginesSchema } from "../../engines/engines-schema.js";
import { executionSection } from "../../execution/execution-schema.js";
import { guardrailsSection } from "../../guardrails/guardrails-schema.js";
import { notificationsSection } from "../../notify/notifications-schema.js";
import { opsSection } from "../../ops/ops-schema.js";
import { repositoriesSection } from "../../repositories/repositories-schema.js";
import { secretsSection } from "../../secrets/secrets-schema.js";
import { ticketingSchema } from "../../sources/ticketing-schema.js";
import { storeSection } from "../../store/store-schema.js";
import { webhookSchema } from "../../webhook/webhook-schema.js";
import { optionalSection, section, withDefaults } from "./kit.js";
import { pluginsSchema } from "./plugins-schema.js";

/** Each top-level section of errand.yaml and its schema, in the order the docs list them. */
export const SECTION_SCHEMAS = {
  webhook: withDefaults(webhookSchema),
  notifications: notificationsSection,
  ticketing: optionalSection(ticketingSchema),
  engines: withDefaults(enginesSchema),
  execution: withDefaults(executionSection),
  guardrails: withDefaults(guardrailsSection),
  repositories: withDefaults(repositoriesSection),
  store: withDefaults(storeSection),
  ops: withDefaults(opsSection),
  console: withDefaults(consoleSection),
  plugins: withDefaults(pluginsSchema),
  secrets: withDefaults(secretsSection),
};

/** The whole errand.yaml: one schema, every key known. */
export const controllerSchema = section(SECTION_SCHEMAS, {
  fix: "start the file with a top-level key such as webhook: or engines:",
}).meta({
  title: "errand.yaml",
  description: "Configuration of the Errand controller (docs/configuration.md).",
});

/** errand.yaml as validated, before paths, labels and secrets are resolved. */
export type ControllerDocument = z.output<typeof controllerSchema>;
