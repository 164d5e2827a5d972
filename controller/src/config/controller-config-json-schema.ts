import * as z from "zod";
import { controllerSchema } from "./schema/controller-schema.js";

/**
 * The JSON Schema (draft 2020-12) of errand.yaml, for editors
 * (`# yaml-language-server: $schema=...`) and other tools. It describes the
 * file as written: defaults are shown, and checks that span keys (a secret
 * that is required once auth_mode is set, say) are left to `errand config check`.
 */
export function controllerConfigJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(controllerSchema, { io: "input", target: "draft-2020-12" }) as Record<string, unknown>;
}
