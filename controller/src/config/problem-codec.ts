/** A problem as a schema's error function reports it; `under` names a key below the path. */
export interface EncodedProblem {
  message: string;
  fix: string;
  under?: string;
}

/** Marks an issue message written by our schemas (zod's own messages lack it). */
const MARK = "\u0000errand:";

/**
 * Packs problems into a zod issue message. zod carries one string per issue;
 * the config reader unpacks it into keyed problems with their fixes. These
 * messages never reach a user unpacked.
 */
export function encodeProblems(...problems: EncodedProblem[]): string {
  return MARK + JSON.stringify(problems);
}

/** The problems packed by {@link encodeProblems}, or undefined for another message. */
export function decodeProblems(message: string): EncodedProblem[] | undefined {
  if (!message.startsWith(MARK)) return undefined;
  return JSON.parse(message.slice(MARK.length)) as EncodedProblem[];
}

/** Shorthand of {@link encodeProblems} for one problem. */
export function say(message: string, fix: string): string {
  return encodeProblems({ message, fix });
}
