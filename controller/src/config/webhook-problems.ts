import type { ControllerWebhookConfig, WebhookMode, WebhookSection } from "../webhook/webhook-schema.js";
import type { PathProblem } from "./path-problem.js";
import type { WebhookSecretValues } from "./resolve-webhook-secrets.js";

/**
 * The webhook section's checks that depend on who reads it (see {@link WebhookMode}) and on the resolved secrets:
 * the controller refuses a route that would open by omission, `errand webhook serve` warns.
 */
export function webhookProblems(
  section: WebhookSection,
  config: ControllerWebhookConfig,
  values: WebhookSecretValues,
  mode: WebhookMode,
  problems: PathProblem[],
  warnings: string[],
): void {
  if (section.generic !== undefined) genericProblems(section.generic, mode, problems, warnings);
  const allowUnsigned = config.allowUnsignedTrackerB;
  const trackerSecret = config.secrets.tracker_b !== undefined;
  if (allowUnsigned && trackerSecret) {
    problems.push({
      path: ["webhook", "tracker_b", "allow_unsigned"],
      message: "is true although webhook.secrets.tracker_b is set, so requests are checked anyway",
      fix: "remove allow_unsigned (the secret is checked), or remove the secret",
    });
  } else if (allowUnsigned) {
    warnings.push(
      "webhook.tracker_b.allow_unsigned is true: the tracker route accepts unsigned requests; set webhook.secrets.tracker_b in production",
    );
  } else if (!trackerSecret && mode === "serve") {
    warnings.push(
      "webhook.secrets.tracker_b is not set: the tracker route accepts unsigned requests; set it (or webhook.secrets.shortcut) in production",
    );
  } else if (!trackerSecret && config.shortcutTargetStateId !== undefined) {
    problems.push({
      path: ["webhook", "shortcut_target_state_id"],
      message: "filters the tracker B route, which is not served: it has no secret",
      fix: "set webhook.secrets.tracker_b or webhook.tracker_b.allow_unsigned: true",
    });
  }
  if (mode === "controller") {
    const sources =
      Object.keys(config.secrets).length + (config.generic === undefined ? 0 : 1) + (allowUnsigned ? 1 : 0);
    if (section.enabled === true && sources === 0)
      warnings.push(
        "webhook.enabled is true but no source is configured: every webhook route answers 404; set webhook.secrets.<source> or webhook.generic",
      );
    for (const key of values.inline) {
      warnings.push(
        `${key} is written in the file itself: anyone who can read it can forge requests; keep it in a secret and write { secret: NAME }`,
      );
    }
  }
}

function genericProblems(
  raw: NonNullable<WebhookSection["generic"]>,
  mode: WebhookMode,
  problems: PathProblem[],
  warnings: string[],
): void {
  if (raw.auth_mode === undefined && raw.secret === undefined) {
    if (mode === "controller") {
      problems.push({
        path: ["webhook", "generic", "auth_mode"],
        message: "is missing, so the generic source would accept unauthenticated requests",
        fix: "set auth_mode to hmac, bearer or standard_webhooks with a secret, or to none to accept unauthenticated requests on purpose",
      });
    } else {
      warnings.push(
        "webhook.generic has no auth_mode: the generic source accepts unauthenticated requests; set webhook.generic.auth_mode and secret in production",
      );
    }
  } else if (raw.auth_mode === "none" && raw.secret === undefined) {
    warnings.push(
      "webhook.generic has auth_mode none: the generic source accepts unauthenticated requests; set webhook.generic.auth_mode and secret in production",
    );
  }
}
