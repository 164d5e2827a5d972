/** Where a run's files are inside the engine container (docs/kubernetes-backend.md, "The pod"). */
export const CONTAINER_PATHS = {
  /** The ConfigMap with the prompt and the ticket, read-only. */
  inputDir: "/errand/input",
  prompt: "/errand/input/prompt.md",
  ticket: "/errand/input/ticket.json",
  /** The engine's stdin when it is not the prompt itself. */
  stdin: "/errand/input/stdin",
  /** An emptyDir for the result file. */
  outputDir: "/errand/output",
  result: "/errand/output/result.json",
  /** The run's workspace: an emptyDir, the working directory. */
  workspace: "/workspace",
  /** HOME: an emptyDir, so CLIs can write their settings whatever the image's user. */
  home: "/home/errand",
  terminationMessage: "/dev/termination-log",
} as const;

/** ConfigMap keys, mounted as files under {@link CONTAINER_PATHS.inputDir}. */
export const INPUT_KEYS = { prompt: "prompt.md", ticket: "ticket.json", stdin: "stdin" } as const;

/** The engine container's name. */
export const ENGINE_CONTAINER = "engine";
