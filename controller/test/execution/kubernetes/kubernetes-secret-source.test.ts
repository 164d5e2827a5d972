import { describe, expect, it } from "vitest";
import { KUBERNETES_DEFAULTS } from "../../../src/execution/kubernetes/kubernetes-config.js";
import { createKubernetesSecretSource } from "../../../src/secrets/kubernetes-secret-source.js";
import { createSecretStore } from "../../../src/secrets/secret-store.js";
import { startFake } from "./helpers/kube-setup.js";

describe("Kubernetes Secret source", () => {
  it("reads each secret from the Secret of its name, key `value`, without a trailing newline", async () => {
    const fake = await startFake();
    fake.putSecret("anthropic-api-key", { value: "sk-ant-from-the-cluster\n" });
    fake.putSecret("chat-a-token", { token: "xoxb-1" });
    fake.putSecret("blank", { value: "\n" });
    const source = createKubernetesSecretSource({
      config: { ...KUBERNETES_DEFAULTS, namespace: "errand" },
      kubeConfig: fake.kubeConfig(),
    });
    const store = await source.load([
      "anthropic-api-key",
      "chat-a-token",
      "missing",
      "blank",
      "CHAT_A_TOKEN",
      "anthropic-api-key",
    ]);
    expect(store.resolve("anthropic-api-key")).toBe("sk-ant-from-the-cluster");
    expect(store.describe("anthropic-api-key")).toEqual([
      'Kubernetes Secret errand/anthropic-api-key, key "value" (found)',
    ]);
    expect(store.resolve("chat-a-token")).toBeUndefined();
    expect(store.describe("chat-a-token")).toEqual([
      'Kubernetes Secret errand/chat-a-token, key "value" (the Secret has no key "value")',
    ]);
    expect(store.describe("missing")).toEqual(['Kubernetes Secret errand/missing, key "value" (not found)']);
    expect(store.describe("blank")).toEqual(['Kubernetes Secret errand/blank, key "value" (empty)']);
    expect(store.describe("CHAT_A_TOKEN")).toEqual([
      'Kubernetes Secret errand/CHAT_A_TOKEN, key "value" (not looked at: not a valid Kubernetes Secret name)',
    ]);
    // One GET per Secret, nothing for a name Kubernetes cannot hold.
    const gets = fake.requests.filter((r) => r.path.includes("/secrets/")).map((r) => r.path.split("/").at(-1));
    expect(gets.sort()).toEqual(["anthropic-api-key", "blank", "chat-a-token", "missing"]);
    expect(source.namespace).toBe("errand");
  });

  it("with from_secret reads every secret as a key of one Secret, in one call", async () => {
    const fake = await startFake();
    fake.putSecret("errand-secrets", { "anthropic-api-key": "sk-ant-1", CHAT_A_TOKEN: "xoxb-2" });
    const config = { ...KUBERNETES_DEFAULTS, secrets: { key: "value", fromSecret: "errand-secrets" } };
    // The namespace comes from the kubeconfig's context when the config names none.
    const source = createKubernetesSecretSource({ config, kubeConfig: fake.kubeConfig("errand") });
    const store = await source.load(["anthropic-api-key", "CHAT_A_TOKEN", "other"]);
    expect([store.resolve("anthropic-api-key"), store.resolve("CHAT_A_TOKEN"), store.resolve("other")]).toEqual([
      "sk-ant-1",
      "xoxb-2",
      undefined,
    ]);
    expect(store.describe("other")).toEqual([
      'Kubernetes Secret errand/errand-secrets, key "other" (the Secret has no key "other")',
    ]);
    expect(fake.requests.filter((r) => r.path.includes("/secrets/"))).toHaveLength(1);
  });

  it("joins the secret store after the environment and the secrets folder, and its places show in errors", async () => {
    const fake = await startFake();
    fake.putSecret("tracker-token", { value: "from-cluster" });
    const cluster = await createKubernetesSecretSource({
      config: { ...KUBERNETES_DEFAULTS, namespace: "errand" },
      kubeConfig: fake.kubeConfig(),
    }).load(["tracker-token", "nowhere"]);
    const store = createSecretStore({ env: { ERRAND_SECRET_OVERRIDDEN: "from-env" }, sources: [cluster] });
    expect(store.resolve("tracker-token")).toBe("from-cluster");
    expect(
      createSecretStore({ env: { ERRAND_SECRET_TRACKER_TOKEN: "from-env" }, sources: [cluster] }).resolve(
        "tracker-token",
      ),
    ).toBe("from-env");
    expect(store.resolve("nowhere")).toBeUndefined();
    expect(store.describe("nowhere")).toEqual([
      "environment variable ERRAND_SECRET_NOWHERE (not set)",
      "no secrets folder (secrets.dir is not set)",
      'Kubernetes Secret errand/nowhere, key "value" (not found)',
    ]);
  });

  it("a cluster it cannot reach is described, not thrown", async () => {
    const fake = await startFake();
    const kubeConfig = fake.kubeConfig();
    await fake.close();
    const store = await createKubernetesSecretSource({
      config: { ...KUBERNETES_DEFAULTS, namespace: "errand" },
      kubeConfig,
    }).load(["anthropic-api-key"]);
    expect(store.resolve("anthropic-api-key")).toBeUndefined();
    expect(store.describe("anthropic-api-key")[0]).toMatch(
      /^Kubernetes Secret errand\/anthropic-api-key, key "value" \(could not be read: .+\)$/,
    );
  });
});
