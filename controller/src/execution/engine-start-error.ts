import { ControllerError, ControllerErrorCode, type ControllerErrorOptions } from "../errors.js";

/**
 * An engine could not be started: a missing or non-executable command, a
 * workspace that cannot be used. The message names the engine and what
 * ran; `hint` names the setting or the command that fixes it.
 */
export class EngineStartError extends ControllerError {
  override readonly name: string = "EngineStartError";
  constructor(message: string, options: ControllerErrorOptions = {}) {
    super(ControllerErrorCode.EngineStart, message, options);
  }
}
