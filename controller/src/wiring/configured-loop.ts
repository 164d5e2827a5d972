import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import { createEngine } from "../engines/create-engine.js";
import type { Engine } from "../engines/engine.js";
import { buildRunPrompt } from "../engines/follow-up-prompt.js";
import { CHECKOUT_PROMPT_TEMPLATE } from "../engines/prompt-template.js";
import type { ExecutionBackend } from "../execution/execution-backend.js";
import { createGuardrails } from "../guardrails/guardrails.js";
import { createLoopMetrics } from "../loop/loop-metrics.js";
import type { ObserverDispatch } from "../loop/observer-dispatch.js";
import { createReconciler, type Reconciler } from "../loop/reconciler.js";
import type { ApprovalSweep } from "../runs/approvals-port.js";
import type { Store } from "../store/store.js";

/** The engines of `engines`, by name, each with the cost limit of the guardrails. */
export function createConfiguredEngines(config: ControllerConfig): Map<string, Engine> {
  const engines = new Map<string, Engine>();
  for (const [name, engineConfig] of Object.entries(config.engines.byName))
    engines.set(name, createEngine(engineConfig, { maxCostUsd: config.guardrails.maxCostPerJob }));
  return engines;
}

/** What {@link createConfiguredLoop} wires together. */
export interface LoopParts {
  config: ControllerConfig;
  secrets: Readonly<Record<string, string>>;
  store: Store;
  backend: ExecutionBackend;
  engines: ReadonlyMap<string, Engine>;
  dispatch: ObserverDispatch;
  owner: string;
  logger: Logger;
  registry: Registry;
  /** The approvals' timeouts and announcements, run on the loop's polls. */
  approvals?: ApprovalSweep;
}

/** The reconciliation loop of the config: its prompts, API keys, guardrails and metrics. */
export function createConfiguredLoop(parts: LoopParts): Reconciler {
  const { config, secrets, store } = parts;
  let loop: Reconciler | undefined;
  const metrics = createLoopMetrics(parts.registry, store, () => loop?.active ?? 0);
  // With repository access, runs work in a checkout: the controller's on the local backend, the pod's on Kubernetes.
  const checkout =
    config.repositories.codehostA !== undefined
    && (parts.backend.name === "local" || parts.backend.name === "kubernetes");
  const builtIn = checkout ? CHECKOUT_PROMPT_TEMPLATE : undefined;
  loop = createReconciler({
    store,
    backend: parts.backend,
    engines: parts.engines,
    prompt: (engine, ticket, run) =>
      buildRunPrompt(ticket, config.engines.byName[engine]?.promptTemplate ?? builtIn, run?.followUp, checkout),
    apiKey: (engine) => {
      const name = config.engines.byName[engine]?.apiKeySecret;
      return name === undefined ? undefined : secrets[name];
    },
    guardrails: createGuardrails(config.guardrails),
    dispatch: parts.dispatch,
    maxConcurrent: config.guardrails.maxConcurrentJobs,
    owner: parts.owner,
    logger: parts.logger.child({ component: "loop" }),
    metrics,
    ...(parts.approvals === undefined ? {} : { approvals: parts.approvals }),
  });
  return loop;
}
