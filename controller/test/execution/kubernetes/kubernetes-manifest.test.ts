import { readFileSync } from "node:fs";
import { Job } from "kubernetes-models/batch/v1";
import { ConfigMap } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ControllerErrorCode } from "../../../src/errors.js";
import { inputConfigMapName, jobNameFor, toLabelValue } from "../../../src/kube/kubernetes-names.js";
import { newRunId } from "../../../src/store/run-id.js";
import { TICKET } from "../helpers/local-setup.js";
import { dnsLabelProblems, dnsSubdomainProblems, labelValueProblems } from "./fake-api/names.js";
import { KINDS } from "./fake-api/status.js";
import { validateManifest } from "./fake-api/validate.js";
import { API_KEY, agentConfig } from "./helpers/kube-setup.js";
import { CLAUDE, renderJob } from "./helpers/render-job.js";

const docs = new URL("../../../../docs/kubernetes-backend.md", import.meta.url);

describe("kubernetes backend: the Job it makes", () => {
  it("is valid for the official schemas and the API server's own rules", () => {
    const { job, configMap } = renderJob();
    expect(() => new Job(job as ConstructorParameters<typeof Job>[0]).validate()).not.toThrow();
    expect(() => new ConfigMap(configMap as ConstructorParameters<typeof ConfigMap>[0]).validate()).not.toThrow();
    expect(() => validateManifest(KINDS.jobs, job, "errand")).not.toThrow();
    expect(() => validateManifest(KINDS.configmaps, configMap, "errand")).not.toThrow();
  });

  it("runs once, as a non-root user without privileges, service account token or service links", () => {
    const spec = renderJob({
      config: {
        serviceAccount: "errand-engine",
        nodeSelector: { "kubernetes.io/arch": "amd64" },
        imagePullSecrets: ["registry-login"],
        workspaceSizeLimit: "20Gi",
        imagePullPolicy: "IfNotPresent",
      },
    }).job.spec;
    expect(spec).toMatchObject({ backoffLimit: 0, activeDeadlineSeconds: 3900, ttlSecondsAfterFinished: 86_400 });
    const pod = spec?.template.spec;
    expect(pod).toMatchObject({
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      serviceAccountName: "errand-engine",
      nodeSelector: { "kubernetes.io/arch": "amd64" },
      imagePullSecrets: [{ name: "registry-login" }],
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        fsGroup: 1000,
        seccompProfile: { type: "RuntimeDefault" },
      },
    });
    expect(pod?.containers[0]).toMatchObject({
      imagePullPolicy: "IfNotPresent",
      securityContext: {
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        privileged: false,
        capabilities: { drop: ["ALL"] },
        seccompProfile: { type: "RuntimeDefault" },
      },
      terminationMessagePath: "/dev/termination-log",
      terminationMessagePolicy: "FallbackToLogsOnError",
    });
    expect(pod?.volumes?.find((v) => v.name === "workspace")?.emptyDir).toEqual({ sizeLimit: "20Gi" });
  });

  it("passes the API key as a reference to its Secret, never as a value", () => {
    const rendered = renderJob({ apiKey: API_KEY });
    expect(JSON.stringify([rendered.job, rendered.configMap])).not.toContain(API_KEY);
    const env = rendered.job.spec?.template.spec?.containers[0]?.env ?? [];
    expect(env.filter((e) => e.name === "ANTHROPIC_API_KEY")).toEqual([
      { name: "ANTHROPIC_API_KEY", valueFrom: { secretKeyRef: { name: "anthropic-api-key", key: "value" } } },
    ]);
    const shared =
      renderJob({ config: { secrets: { key: "value", fromSecret: "errand-secrets" } } }).job.spec?.template.spec
        ?.containers[0]?.env ?? [];
    expect(shared.find((e) => e.name === "ANTHROPIC_API_KEY")?.valueFrom).toEqual({
      secretKeyRef: { name: "errand-secrets", key: "anthropic-api-key" },
    });
  });

  it("refuses a secret name a Kubernetes Secret cannot have, unless the secrets share one Secret", () => {
    const engine = { ...CLAUDE, apiKeySecret: "ANTHROPIC_KEY" };
    expect(() => renderJob({ engine })).toThrow(
      expect.objectContaining({
        code: ControllerErrorCode.EngineStart,
        message: expect.stringContaining('the secret name "ANTHROPIC_KEY" is not a valid Kubernetes Secret name'),
      }),
    );
    expect(
      renderJob({ engine, config: { secrets: { key: "value", fromSecret: "errand-secrets" } } }).job.metadata?.name,
    ).toBeDefined();
  });

  it("names Jobs after their runs: valid DNS-1123 labels of at most 63 characters, never two alike", () => {
    const ids = [
      ...Array.from({ length: 200 }, () => newRunId()),
      "RUN_UPPER",
      "run_ÄÖü",
      "run.1/2",
      "a".repeat(80),
      `${"a".repeat(80)}b`,
      "run--x--",
      "-",
    ];
    const names = ids.map(jobNameFor);
    for (const name of names) {
      expect(dnsLabelProblems(name), name).toEqual([]);
      expect(dnsSubdomainProblems(inputConfigMapName(name)), name).toEqual([]);
    }
    expect(new Set(names).size).toBe(ids.length);
    const id = newRunId();
    expect(jobNameFor(id)).toBe(`errand-${id.replace("_", "-")}`);
  });

  it("labels hold valid values however odd the ticket; annotations keep the exact ids", () => {
    for (const id of ["acme/shop#42", "x".repeat(100), "--weird--", "ü-ticket", "", "a b\tc", "ENG-1234"]) {
      const { job } = renderJob({ ticket: { ...TICKET, id } });
      for (const [key, value] of Object.entries(job.metadata?.labels ?? {}))
        expect(labelValueProblems(value), `${key}=${value}`).toEqual([]);
      expect(job.metadata?.annotations?.["errand.dev/ticket"]).toBe(`generic:${id}`);
      expect(() => validateManifest(KINDS.jobs, job, "errand")).not.toThrow();
    }
    expect(toLabelValue("acme/shop#42")).toBe("acme-shop-42");
  });

  it("gives stdin from the prompt file, from a file of its own, or nothing", () => {
    const command = (r: ReturnType<typeof renderJob>) => r.job.spec?.template.spec?.containers[0]?.command ?? [];
    expect(command(renderJob())[4]).toBe("/errand/input/prompt.md");
    const fromFile = renderJob({ engine: agentConfig() });
    expect(command(fromFile)[4]).toBe("");
    expect(command(fromFile).slice(7)).toEqual(["/opt/agent/run.sh", "--verbose"]);
    expect(Object.keys(fromFile.files)).toEqual(["prompt.md", "ticket.json"]);
  });

  it("refuses a prompt and ticket larger than a ConfigMap holds before any call", () => {
    const huge = { ...TICKET, rawEvent: { blob: "x".repeat(1024 * 1024) } };
    expect(() => renderJob({ ticket: huge })).toThrow(
      expect.objectContaining({
        code: ControllerErrorCode.EngineStart,
        message: expect.stringMatching(/the prompt and ticket are \d+ bytes, more than a ConfigMap holds \(1 MiB\)/),
      }),
    );
  });

  it("is the manifest docs/kubernetes-backend.md shows", () => {
    const { job, configMap } = renderJob();
    const rendered = `${stringify(job, { lineWidth: 0 })}---\n${stringify(configMap, { lineWidth: 0 })}`;
    const text = readFileSync(docs, "utf8");
    const block = /<!-- BEGIN RENDERED MANIFEST[^>]*-->\n```yaml\n([\s\S]*?)```\n<!-- END RENDERED MANIFEST -->/.exec(
      text,
    )?.[1];
    expect(block, "docs/kubernetes-backend.md has no rendered manifest block").toBeDefined();
    expect(block, "docs/kubernetes-backend.md shows another manifest than the code makes: paste the rendered one").toBe(
      rendered,
    );
  });
});
