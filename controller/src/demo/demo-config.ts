import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseDocument } from "yaml";

/** The stand-ins of code host A the demo's copy points `repositories.codehost_a` at. */
export interface DemoRepositoryConfig {
  /** The REST stand-in's base URL. */
  apiUrl: string;
  /** The git server's address, `http://127.0.0.1:PORT` (added to `guardrails.allowed_repos`). */
  gitUrl: string;
  /** The made-up token both stand-ins accept: written to the secrets folder only. */
  token: string;
  /** The secret the stand-in signs its webhook events with. */
  hookSecret: string;
}

/** What {@link writeDemoConfig} fills in. */
export interface DemoConfigOptions {
  /** controller/: the bundled configuration and agent are under its demo/. */
  packageDir: string;
  chatApiUrl: string;
  hookUrl: string;
  webhookSecret: string;
  chatToken: string;
  approval: boolean;
  repository: DemoRepositoryConfig | undefined;
}

/**
 * Writes the demo's copy of controller/demo/errand.yaml to `dir`, with free
 * ports, the stand-ins' addresses, and (with `repository`) repository access
 * through the code host A stand-ins. Secrets go by name into a folder laid
 * out as Kubernetes mounts a Secret: one file per secret, never into the
 * configuration. Returns the copy's path.
 */
export function writeDemoConfig(dir: string, o: DemoConfigOptions): string {
  const doc = parseDocument(readFileSync(resolve(o.packageDir, "demo/errand.yaml"), "utf8"));
  doc.setIn(["webhook", "port"], 0);
  doc.setIn(["ops", "port"], 0);
  doc.setIn(["engines", "demo", "command"], [resolve(o.packageDir, "demo/agent.mjs")]);
  doc.setIn(["notifications", "channels", 0, "config", "api_base_url"], o.chatApiUrl);
  doc.setIn(["notifications", "channels", 1, "config", "url"], o.hookUrl);
  if (o.approval) doc.setIn(["guardrails", "require_approval"], { always: true });
  const secrets: Record<string, string> = { "demo-webhook-secret": o.webhookSecret, "demo-chat-token": o.chatToken };
  const repo = o.repository;
  if (repo !== undefined) {
    secrets["demo-codehost-a-hook"] = repo.hookSecret;
    secrets["demo-repo-token"] = repo.token;
    doc.setIn(["webhook", "secrets"], { codehost_a: { secret: "demo-codehost-a-hook" } });
    doc.addIn(["guardrails", "allowed_repos"], `${new URL(repo.gitUrl).host}/acme/*`);
    doc.set("repositories", {
      codehost_a: { api_base_url: repo.apiUrl, token_secret: "demo-repo-token" },
      checkout: { git_user_name: "Errand Demo", git_user_email: "errand-demo@example.invalid" },
    });
  }
  mkdirSync(resolve(dir, "secrets"), { recursive: true, mode: 0o700 });
  for (const [name, value] of Object.entries(secrets))
    writeFileSync(resolve(dir, "secrets", name), `${value}\n`, { mode: 0o600 });
  doc.set("secrets", { dir: "secrets" });
  const file = resolve(dir, "errand.yaml");
  writeFileSync(
    file,
    doc.toString().replace("$schema=../errand.schema.json", `$schema=${resolve(o.packageDir, "errand.schema.json")}`),
  );
  return file;
}
