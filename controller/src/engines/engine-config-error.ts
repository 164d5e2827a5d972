import { ControllerError, ControllerErrorCode } from "../errors.js";

/**
 * An engine configuration that cannot be run (a `command` engine without a
 * command, say). The config loader checks the same things first; this keeps
 * a hand-made EngineConfig from failing later, at run time.
 */
export class EngineConfigError extends ControllerError {
  override readonly name: string = "EngineConfigError";
  constructor(message: string, hint: string) {
    super(ControllerErrorCode.InvalidConfig, message, { hint });
  }
}
