import { ControllerError } from "../errors.js";

/** Writes a user error the way every command does, and returns exit code 1. */
export function reportError(error: unknown): number {
  if (error instanceof ControllerError) {
    process.stderr.write(`errand: ${error.message}\n`);
    if (error.hint !== undefined && !error.message.includes(error.hint))
      process.stderr.write(`  hint: ${error.hint}\n`);
    return 1;
  }
  throw error;
}
