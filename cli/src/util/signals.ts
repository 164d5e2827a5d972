/** The signals the commands stop on, with the exit code a shell reports for each (128 + its number). */
export const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** The signals of {@link SIGNAL_EXIT_CODES}. */
export const STOP_SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[];

/** The exit code for having been stopped by `signal`. */
export const exitCodeFor = (signal: NodeJS.Signals | undefined): number => (signal && SIGNAL_EXIT_CODES[signal]) || 1;
