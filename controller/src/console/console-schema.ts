import type * as z from "zod";
import { choice, flag, section, text, whole } from "../config/schema/kit.js";
import { secretName } from "../config/schema/secret-name-schema.js";

/** `console` as written in errand.yaml: the operator's web console. */
export const consoleSection = section({
  enabled: flag().default(true).meta({ description: "Serve the web console under /console/." }),
  port: whole(0, 65_535)
    .optional()
    .meta({ description: "Port of its own for the console (0 picks a free one). Unset: the ops server's port." }),
  host: text()
    .default("127.0.0.1")
    .meta({ description: "Address the console's own port listens on (used only with `port`)." }),
  token_secret: secretName(
    "Name of the secret holding the operator token. Actions (cancel, retry, approve, reject) need it; unset: the console is read-only.",
  ).optional(),
  token_label: text()
    .default("operator")
    .meta({ description: "Who the token's holder is, as the run's timeline records an action." }),
  read_access: choice(["loopback", "token", "open"]).default("loopback").meta({
    description:
      "Who may read the console: `loopback` (anyone connecting from 127.0.0.1 or ::1, the token elsewhere), `token` (the token always) or `open` (anyone who reaches the port).",
  }),
}).meta({ description: "The operator's web console: runs, channels, sources, store; cancel, retry, approve." });

/** `console`, resolved. */
export const consoleConfig = consoleSection.transform((c) => ({
  enabled: c.enabled,
  /** Undefined: served on the ops server's port. */
  port: c.port,
  host: c.host,
  tokenSecret: c.token_secret,
  tokenLabel: c.token_label,
  readAccess: c.read_access,
}));

/** `console`, resolved. */
export type ConsoleConfig = z.output<typeof consoleConfig>;
