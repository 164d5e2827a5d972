import type { KubernetesRepositories } from "../../../../src/execution/kubernetes/run-context.js";
import { repositoriesConfig } from "../../../../src/repositories/repositories-schema.js";

/** The repository token of the checkout tests: it must appear only in its Secret. */
export const REPO_TOKEN = "ghs_checkoutTEST0123456789abcdefXYZ";

/** The ticket's branch with the default template (TICKET: id 42, "Fix the login page"). */
export const TICKET_BRANCH = "errand/42-fix-the-login-page";

/** `repositories` with the default checkout settings and a token source giving `token` (or failing with `fails`). */
export function repositories(options: { token?: string; fails?: string } = {}): KubernetesRepositories {
  return {
    checkout: repositoriesConfig.parse({}).checkout,
    token: {
      async token() {
        if (options.fails !== undefined) throw new Error(options.fails);
        return options.token ?? REPO_TOKEN;
      },
    },
  };
}
