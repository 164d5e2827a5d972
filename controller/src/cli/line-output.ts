/** Ticket lines on a stream that can break (stdout whose reader went away). */
export interface LineOutput {
  /**
   * Resolves once the lines were handed to the stream. Rejects if the write
   * failed, and at once, without writing, after any failure: the reader is
   * gone, and a line that still got through would follow a lost one.
   */
  write(lines: string[]): Promise<void>;
  /** Resolves with the first failure of the stream, once. */
  readonly broken: Promise<Error>;
  /** The first failure, if the stream broke. */
  readonly failure: Error | undefined;
}

/** Writes JSON lines to `stream` (stdout in the CLI) and turns its errors into one `broken` signal. */
export function createLineOutput(stream: NodeJS.WritableStream): LineOutput {
  let failure: Error | undefined;
  let reportBroken!: (error: Error) => void;
  const broken = new Promise<Error>((resolve) => (reportBroken = resolve));
  // A failed write reports both to its callback and as an 'error' event; only the first one counts.
  const fail = (error: Error) => {
    if (failure !== undefined) return;
    failure = error;
    reportBroken(error);
  };
  // Without a listener, EPIPE is an unhandled 'error' event that kills the process mid-request.
  stream.on("error", fail);
  const notWritten = () => new Error(`ticket not written: ${describeFailure(failure)}`, { cause: failure });
  return {
    broken,
    get failure() {
      return failure;
    },
    write(lines) {
      if (failure !== undefined) return Promise.reject(notWritten());
      return new Promise((resolve, reject) => {
        stream.write(`${lines.join("\n")}\n`, (error) => {
          if (!error) return resolve();
          fail(error);
          reject(notWritten());
        });
      });
    },
  };
}

/** The failure's cause in words, e.g. "stdout was closed by its reader (EPIPE)". */
export function describeFailure(error: Error | undefined): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EPIPE") return "stdout was closed by its reader (EPIPE)";
  return `writing to stdout failed (${code ?? error?.message ?? "unknown error"})`;
}
