import type { V1Job } from "@kubernetes/client-node";
import type { EngineInput, EngineInvocation, OutputParser } from "../../engines/engine.js";
import { ticketFileText } from "../../engines/ticket-file.js";
import { ControllerError } from "../../errors.js";
import { inputConfigMapName, jobNameFor } from "../../kube/kubernetes-names.js";
import { secretLocation, secretLocationProblem } from "../../kube/secret-location.js";
import { EngineStartError } from "../engine-start-error.js";
import type { RunSpec } from "../execution-backend.js";
import type { PodCheckout } from "./checkout-pod.js";
import { checkoutFor } from "./checkout-secret.js";
import { CONTAINER_PATHS, INPUT_KEYS } from "./container-paths.js";
import { buildJob, type InputFiles } from "./job-manifest.js";
import type { RunContext } from "./run-context.js";

/** A run's Job and input files, ready to create. */
export interface PreparedJob {
  jobName: string;
  configMapName: string;
  job: V1Job;
  files: InputFiles;
  parser: OutputParser;
  /** The run's checkout: its credential Secret is made with the Job. Undefined: an empty workspace. */
  checkout: PodCheckout | undefined;
}

/** What a Job is made from besides the run. */
export type JobSettings = Pick<
  RunContext,
  "config" | "engines" | "namespace" | "activeDeadlineSeconds" | "repositories"
>;

/** What a ConfigMap holds at most (etcd's object limit), less room for its metadata. */
const MAX_INPUT_BYTES = 1024 * 1024 - 16 * 1024;
/** Shorter values would match ordinary words; no real API key is that short. */
const MIN_SECRET_LENGTH = 8;

/**
 * Everything before the API calls: the engine's command for the container's
 * paths (its API key left out: it comes from its Secret), the Job manifest
 * and the ConfigMap's files. Throws an EngineStartError naming the setting
 * to fix: no image, a secret name Kubernetes cannot hold, input too large,
 * or the API key found in what would be written to the cluster.
 */
export function prepareJob(context: JobSettings, spec: RunSpec): PreparedJob {
  const { engine, run } = spec;
  const name = engine.name;
  if (engine.image === undefined || engine.image.trim() === "") {
    throw new EngineStartError(
      `engine "${name}" has no container image; the kubernetes backend runs each engine in a container`,
      {
        hint: `set engines.${name}.image to an image that has the engine's command and /bin/sh`,
      },
    );
  }
  const jobName = jobNameFor(run.id);
  const configMapName = inputConfigMapName(jobName);
  const secretName = context.engines[name]?.apiKeySecret;
  let apiKey;
  if (engine.apiKeyEnv !== undefined && secretName !== undefined) {
    const problem = secretLocationProblem(secretName, context.config.secrets);
    if (problem !== undefined) {
      throw new EngineStartError(`engine "${name}" could not be started: ${problem}`, {
        hint: `rename the secret in engines.${name}.auth.api_key_secret, or keep every secret in one Secret with execution.kubernetes.secrets.from_secret`,
      });
    }
    apiKey = { env: engine.apiKeyEnv, location: secretLocation(secretName, context.config.secrets) };
  }
  const input: EngineInput = {
    ticket: spec.ticket,
    runId: run.id,
    prompt: spec.prompt,
    workspace: CONTAINER_PATHS.workspace,
    files: { prompt: CONTAINER_PATHS.prompt, ticket: CONTAINER_PATHS.ticket, result: CONTAINER_PATHS.result },
    apiKey: undefined,
  };
  const invocation = fromEngine(name, "build its command", () => engine.invocation(input));
  const parser = fromEngine(name, "make its output parser", () => engine.parser());
  const files: InputFiles = { [INPUT_KEYS.prompt]: spec.prompt, [INPUT_KEYS.ticket]: ticketFileText(spec.ticket) };
  const stdinFile = stdinFileFor(invocation, spec.prompt, files);
  const checkout = checkoutFor(context.repositories, spec, jobName);
  const size = Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  if (size > MAX_INPUT_BYTES) {
    throw new EngineStartError(
      `engine "${name}" could not be started: the prompt and ticket are ${size} bytes, more than a ConfigMap holds (1 MiB)`,
      {
        hint: `shorten engines.${name}.prompt, or send tickets without their large raw event`,
      },
    );
  }
  const job = buildJob({
    config: context.config,
    image: engine.image,
    runId: run.id,
    configMapName,
    invocation,
    stdinFile,
    apiKey,
    ...(checkout === undefined ? {} : { checkout }),
    namespace: context.namespace,
    jobName,
    run,
    ticket: spec.ticket,
    engineName: name,
    activeDeadlineSeconds: context.activeDeadlineSeconds,
  });
  const key = spec.apiKey;
  if (key !== undefined && key.length >= MIN_SECRET_LENGTH) {
    const where = JSON.stringify(job).includes(key)
      ? "the Job manifest"
      : Object.values(files).some((t) => t.includes(key))
        ? "the prompt or ticket"
        : undefined;
    if (where !== undefined) {
      throw new EngineStartError(
        `engine "${name}" was not started: its API key appears in ${where}, which would be stored in the cluster in clear`,
        {
          hint: `remove the key from engines.${name}.env, args and prompt; the backend passes it from its Secret (docs/kubernetes-backend.md, "Secrets")`,
        },
      );
    }
  }
  return { jobName, configMapName, job, files, parser, checkout };
}

/** Where the engine's stdin comes from in the container; adds a `stdin` file when it is not the prompt. */
function stdinFileFor(invocation: EngineInvocation, prompt: string, files: InputFiles): string | undefined {
  if (invocation.stdin === undefined) return undefined;
  if (invocation.stdin === prompt) return CONTAINER_PATHS.prompt;
  files[INPUT_KEYS.stdin] = invocation.stdin;
  return CONTAINER_PATHS.stdin;
}

function fromEngine<T>(engineName: string, what: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof ControllerError) throw error;
    throw new EngineStartError(`engine "${engineName}" could not ${what}: ${(error as Error).message}`, {
      cause: error,
      hint: `check the settings under engines.${engineName}`,
    });
  }
}
