/** What a secret in a printed configuration reads as. */
export const MASK = "***";
