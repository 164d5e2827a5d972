import { ControllerError, ControllerErrorCode } from "../errors.js";

/** One configured channel that cannot be used, and how to fix it. */
export interface ChannelSetupProblem {
  /** The entry, as {@link describeEntry} names it. */
  entry: string;
  /** The channel's label (for `--json` output and tests). */
  label: string;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  fix: string;
  /** The SDK's error code when the problem came from starting the channel (`ERR_VERSION_MISMATCH`, ...). */
  channelCode?: string;
}

/**
 * The notification channels cannot start as configured: an unknown backend,
 * two entries with one label, a plugin without interface version 1, a
 * plugin that refuses its config. Carries every problem found, so a user
 * fixes them all in one go.
 */
export class ChannelSetupError extends ControllerError {
  override readonly name: string = "ChannelSetupError";
  readonly problems: readonly ChannelSetupProblem[];

  constructor(problems: readonly ChannelSetupProblem[], options: { cause?: unknown } = {}) {
    const lines = problems.map((p) => `  - ${p.entry}: ${p.message}; ${p.fix}`);
    super(ControllerErrorCode.InvalidConfig, `the notification channels cannot start:\n${lines.join("\n")}`, {
      cause: options.cause,
      hint: problems[0]?.fix,
    });
    this.problems = problems;
  }
}
