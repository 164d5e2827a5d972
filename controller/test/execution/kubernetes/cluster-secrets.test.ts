import { describe, expect, it } from "vitest";
import { parseControllerConfig } from "../../../src/config/parse-controller-config.js";
import { resolveAllSecrets } from "../../../src/secrets/resolve-all-secrets.js";
import { SecretNotFoundError } from "../../../src/secrets/secret-not-found-error.js";
import { startFake } from "./helpers/kube-setup.js";

const doc = (backend: string) => ({
  engines: {
    default: "claude_code",
    claude_code: { auth: { api_key_secret: "anthropic-api-key" }, image: "ghcr.io/acme/claude:1" },
  },
  execution: { backend, kubernetes: { namespace: "errand" } },
});

describe("the controller's secrets when runs go to Kubernetes", () => {
  it("are read from the cluster's Secrets after the environment, and a missing one names the Secret it looked for", async () => {
    const fake = await startFake();
    fake.putSecret("anthropic-api-key", { value: "sk-ant-from-the-cluster" });
    const { config } = parseControllerConfig(doc("kubernetes"), { baseDir: "/tmp", env: {} });
    expect(await resolveAllSecrets(config, {}, fake.kubeConfig())).toEqual({
      "anthropic-api-key": "sk-ant-from-the-cluster",
    });
    expect(
      await resolveAllSecrets(config, { ERRAND_SECRET_ANTHROPIC_API_KEY: "sk-ant-env" }, fake.kubeConfig()),
    ).toEqual({ "anthropic-api-key": "sk-ant-env" });
    const empty = await startFake();
    const error = await resolveAllSecrets(config, {}, empty.kubeConfig()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretNotFoundError);
    expect((error as Error).message).toContain("Kubernetes Secret errand/anthropic-api-key");
  });

  it("are not looked for in a cluster by a controller that runs engines locally", async () => {
    const fake = await startFake();
    const { config } = parseControllerConfig(doc("local"), { baseDir: "/tmp", env: {} });
    expect(
      await resolveAllSecrets(config, { ERRAND_SECRET_ANTHROPIC_API_KEY: "sk-ant-env" }, fake.kubeConfig()),
    ).toEqual({ "anthropic-api-key": "sk-ant-env" });
    expect(fake.requests).toEqual([]);
  });
});
