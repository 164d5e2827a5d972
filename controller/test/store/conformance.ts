import { describe } from "vitest";
import { announcementTests } from "./conformance/announcements.js";
import { approvalMessageTests } from "./conformance/approval-messages.js";
import { approvalTests } from "./conformance/approvals.js";
import { claimTests } from "./conformance/claims.js";
import { deliveryTests } from "./conformance/deliveries.js";
import { followUpTests } from "./conformance/follow-ups.js";
import { handledDeliveryTests } from "./conformance/handled-deliveries.js";
import { intakeTests } from "./conformance/intake.js";
import { leadershipTests } from "./conformance/leadership.js";
import { lifecycleTests } from "./conformance/lifecycle.js";
import { queryTests } from "./conformance/queries.js";
import { requesterTests } from "./conformance/requesters.js";
import { retryCancelTests } from "./conformance/retry-cancel.js";
import { type OpenStore, type StoreFixture, useFixtures } from "./conformance/support.js";
import { transitionTests } from "./conformance/transitions.js";

export type { OpenStore, StoreFixture };

/**
 * Registers the Store conformance suite: every rule of the Store TSDoc
 * (controller/src/store/store.ts), checked through the interface only, so
 * each implementation (SQLite, PostgreSQL) runs the very same tests.
 *
 * `open` gives a fresh, empty database each time, a `reopen` that opens
 * another Store on that database (a second connection: what a second
 * process would hold), and a `cleanup`. Times come from the real clock:
 * leases and TTLs under test are a millisecond long and the tests wait
 * 25 ms past them, so no assertion depends on speed.
 */
export function describeStoreConformance(name: string, open: OpenStore): void {
  describe(`Store conformance: ${name}`, () => {
    const fresh = useFixtures(open);
    intakeTests(fresh);
    deliveryTests(fresh);
    handledDeliveryTests(fresh);
    claimTests(fresh);
    transitionTests(fresh);
    retryCancelTests(fresh);
    announcementTests(fresh);
    queryTests(fresh);
    lifecycleTests(fresh);
    leadershipTests(fresh);
    approvalTests(fresh);
    approvalMessageTests(fresh);
    followUpTests(fresh);
    requesterTests(fresh);
  });
}
