import type { EngineExit } from "../engine.js";
import type { LineTail } from "./line-tail.js";

/**
 * What was wrong with how the process ended, in words for a failure reason,
 * or undefined when it exited 0. `who` names the program ("claude", "the engine").
 */
export function exitProblem(exit: EngineExit, who: string, stderr: LineTail): string | undefined {
  const tail = stderr.text();
  if (exit.exitUnknown === true) return undefined;
  const said = tail === "" ? "" : ` (stderr: ${tail})`;
  if (exit.signal !== undefined) return `${who} was ended by ${exit.signal}${said}`;
  if (exit.exitCode === undefined) return `${who} ended without an exit code${said}`;
  if (exit.exitCode !== 0) return `${who} exited with code ${exit.exitCode}${said}`;
  return undefined;
}
