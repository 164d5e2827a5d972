/** Why the console refused a request: an HTTP status, a stable code, what was wrong and how to fix it. */
export interface ConsoleRefusal {
  status: number;
  code: string;
  message: string;
  fix: string;
}

/** A {@link ConsoleRefusal}. */
export function refusal(status: number, code: string, message: string, fix: string): ConsoleRefusal {
  return { status, code, message, fix };
}
