import type { TicketSource } from "../intake/ticket-source.js";
import type { LeaderElection } from "../loop/leader-election.js";
import type { Reconciler } from "../loop/reconciler.js";
import type { Notifier } from "../notify/notifier-types.js";
import type { ReadinessCheck } from "../ops/ops-server.js";
import type { Store } from "../store/store.js";

/** The parts of a controller that `/readyz` reports on. */
export interface ReadinessParts {
  /** True once the controller's start finished. */
  started(): boolean;
  election: LeaderElection;
  loop: Reconciler;
  store: Store;
  sources: readonly TicketSource[];
  notifier: Notifier | undefined;
  /** Extra parts given by the caller (channels). */
  extra: readonly ReadinessCheck[];
}

/** The checks of `/readyz`: the loop, the store and every source are critical; the channels only add detail. */
export function readinessChecks(parts: ReadinessParts): ReadinessCheck[] {
  const { election, loop, store, notifier } = parts;
  return [
    {
      name: "loop",
      critical: true,
      check: () => ({
        ok: parts.started(),
        detail: !parts.started()
          ? "starting"
          : election.leading
            ? `leading, ${loop.active} running`
            : `standby; ${election.leader ?? "another controller"} leads`,
      }),
    },
    {
      name: "store",
      critical: true,
      check: async () => ({
        ok: true,
        detail: `${store.kind} at ${store.location}, ${(await store.countRuns()).Queued} queued`,
      }),
    },
    ...parts.sources.map((s) => ({
      name: `source:${s.name}`,
      critical: true,
      check: () => {
        const h = s.health();
        return { ok: h.ready, detail: h.detail };
      },
    })),
    // Channels are non-critical: they add detail to /readyz and never fail it.
    ...(notifier
      ? [
          {
            name: "notifications",
            critical: false,
            check: () => {
              const h = notifier.health();
              return { ok: h.status === "ok", detail: h.channels };
            },
          },
        ]
      : []),
    ...parts.extra,
  ];
}
