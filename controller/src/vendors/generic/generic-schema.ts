import * as z from "zod";
import { say } from "../../config/problem-codec.js";
import { choice, errorFor, section, show, text } from "../../config/schema/kit.js";
import { secretRef } from "../../config/schema/secret-ref-schema.js";
import { TICKET_FIELDS, type TicketField, WEBHOOK_DEFAULTS } from "../../config/webhook-config.js";

/** A dot path into the JSON body: `issue.id`, `items.0.name`, `items[0].name`. */
const DOT_PATH = /^[A-Za-z0-9_$-]+(\[\d+\])*(\.([A-Za-z0-9_$-]+|\d+)(\[\d+\])*)*$/;

const fieldMapping = z
  .record(
    z
      .string()
      .regex(DOT_PATH, { error: say("is not a dot path", "write paths like issue.id, items.0.name or items[0].name") }),
    z.enum(TICKET_FIELDS, {
      error: errorFor((input) => `maps to ${show(input)}`, `map to one of ${TICKET_FIELDS.join(", ")}`),
    }),
    {
      error: errorFor(
        () => "must map dot paths to ticket fields",
        'write e.g. field_mapping: { "data.id": id, "data.name": title }',
      ),
    },
  )
  // Runs even when some entries are bad (they are left out here), so every mapping problem shows at once.
  .superRefine(
    (mapping, ctx) => {
      const seen = new Map<string, string>();
      for (const [path, target] of Object.entries(mapping)) {
        const first = seen.get(target);
        if (first === undefined) seen.set(target, path);
        else
          ctx.addIssue({
            code: "custom",
            path: [path],
            input: target,
            message: say(`maps to ${target}, which ${first} already fills`, "map each ticket field from one path only"),
          });
      }
      if (!seen.has("id"))
        ctx.addIssue({
          code: "custom",
          input: mapping,
          message: say("maps no path to id", 'add the path of the event\'s identifier, e.g. "data.id": id'),
        });
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .meta({
    description:
      "Dot path in the JSON body → ticket field (`id` required). Unset: a flat body whose top-level keys are the ticket fields.",
  });

/** `webhook.generic`: the generic JSON source. */
export const genericSchema = section(
  {
    auth_mode: choice(["hmac", "bearer", "standard_webhooks", "none"])
      .meta({
        description:
          "How requests are authenticated: `hmac` (signature header), `bearer` (Authorization header), `standard_webhooks`, or `none` (no authentication; the controller needs it written out).",
      })
      .optional(),
    secret: secretRef(
      "Secret of the generic source (required unless auth_mode is none); a `whsec_` value for standard_webhooks.",
    ).optional(),
    signature_header: text({
      pattern: /^[A-Za-z0-9-]+$/,
      fix: "use letters, digits and dashes, e.g. X-Webhook-Signature",
    })
      .default(WEBHOOK_DEFAULTS.signatureHeader)
      .meta({ description: "Header carrying the HMAC signature (auth_mode hmac)." }),
    field_mapping: fieldMapping.optional(),
  },
  { fix: "write generic: with auth_mode, secret and field_mapping below it" },
)
  .superRefine((generic, ctx) => {
    const mode = generic.auth_mode;
    const hasSecret = generic.secret !== undefined;
    if (mode !== undefined && mode !== "none" && !hasSecret) {
      ctx.addIssue({
        code: "custom",
        path: ["secret"],
        input: undefined,
        message: say(
          `is required when auth_mode is ${mode}`,
          "set webhook.generic.secret (a value, { secret: NAME }, { env: NAME } or { file: PATH })",
        ),
      });
    }
    if (mode === undefined && hasSecret) {
      ctx.addIssue({
        code: "custom",
        path: ["auth_mode"],
        input: undefined,
        message: say("is missing although a secret is set", "set auth_mode to hmac, bearer or standard_webhooks"),
      });
    }
    if (mode === "none" && hasSecret) {
      ctx.addIssue({
        code: "custom",
        path: ["secret"],
        input: generic.secret,
        message: say(
          "is set but auth_mode is none, so it would never be checked",
          "set auth_mode to hmac, bearer or standard_webhooks, or remove the secret",
        ),
      });
    }
  })
  .meta({ description: "The generic JSON source (`POST /webhooks/generic`); served when this key is present." });

/**
 * `webhook.generic`, resolved: `secret` is the signing secret read from the file, the environment or the secret store
 * (absent for auth_mode none); the signature header is lower-cased, as Node names headers.
 */
export const genericConfig = (secret: string | undefined) =>
  genericSchema.transform((g) => ({
    authMode: g.auth_mode ?? "none",
    signatureHeader: g.signature_header.toLowerCase(),
    ...(secret === undefined ? {} : { secret }),
    // Dot path to ticket field, in the file's order; absent means the flat default.
    ...(g.field_mapping === undefined
      ? {}
      : {
          fieldMapping: Object.entries(g.field_mapping) as ReadonlyArray<readonly [path: string, field: TicketField]>,
        }),
  }));

/** `webhook.generic`, resolved: what the generic source reads. */
export type GenericConfig = z.output<ReturnType<typeof genericConfig>>;
