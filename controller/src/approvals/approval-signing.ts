import { createHmac, timingSafeEqual } from "node:crypto";
import type { ApprovalDecision } from "../runs/approvals-port.js";

/** What the key of chat A's approval buttons is derived from when `guardrails.approval_signing_secret` is unset. */
const DERIVATION_LABEL = "errand-approval-buttons-v1";
const RUN_ID = /^run_[0-9a-z]{26}$/;

/**
 * The key that binds an approval button's value to its run: the value of
 * the secret `guardrails.approval_signing_secret` names, or else
 * HMAC-SHA256(chat A's webhook signing secret, "errand-approval-buttons-v1"),
 * so the signing secret itself never signs anything but requests. Undefined
 * when neither is configured: then no buttons are posted.
 */
export function approvalKey(signingSecret: string | undefined, chatASecret: string | undefined): Buffer | undefined {
  if (signingSecret !== undefined && signingSecret !== "") return Buffer.from(signingSecret, "utf8");
  if (chatASecret === undefined || chatASecret === "") return undefined;
  return createHmac("sha256", chatASecret).update(DERIVATION_LABEL).digest();
}

const mac = (key: Buffer, runId: string, decision: ApprovalDecision) =>
  createHmac("sha256", key).update(`${runId}:${decision}`).digest("hex");

/** A button's value: `<run id>.<hex HMAC-SHA256 of "<run id>:<decision>">`. */
export function signApprovalValue(key: Buffer, runId: string, decision: ApprovalDecision): string {
  return `${runId}.${mac(key, runId, decision)}`;
}

/**
 * The run id a button's value names, when its HMAC is the one this key
 * makes for that run and `decision`; undefined for anything else (another
 * run's id, a value of the other button, a forged or cut value).
 */
export function verifyApprovalValue(key: Buffer, value: string, decision: ApprovalDecision): string | undefined {
  const dot = value.indexOf(".");
  if (dot < 0) return undefined;
  const runId = value.slice(0, dot);
  if (!RUN_ID.test(runId)) return undefined;
  const given = Buffer.from(value.slice(dot + 1), "utf8");
  const expected = Buffer.from(mac(key, runId, decision), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected) ? runId : undefined;
}
