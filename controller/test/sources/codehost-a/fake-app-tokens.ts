import { type createPublicKey, createVerify, generateKeyPairSync, randomBytes } from "node:crypto";
import type { ExtraRoute } from "./fake-codehost-a.js";

/** A GitHub App as the fake knows it, and the installation tokens it issued. */
export interface FakeApp {
  readonly appId: number;
  readonly installationId: number;
  /** The App's private key (PKCS#1 PEM, as the App's settings page gives it). */
  readonly privateKey: string;
  /** Every token issued, oldest first. */
  readonly issued: { token: string; expiresAt: number }[];
  /** Lifetime of the next tokens, ms (the real host's: one hour). */
  lifetimeMs: number;
  /** True for a token issued and not expired. */
  valid(token: string): boolean;
  readonly route: ExtraRoute;
}

const DOCS = "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app";

/**
 * `POST /app/installations/{id}/access_tokens`: checks the JWT (RS256
 * signature with the App's public key, `iss` the App id, not expired) and
 * issues a token expiring after `lifetimeMs`. A bad JWT gets 401, an
 * unknown installation 404, as the vendor answers.
 */
export function createFakeApp(appId = 1234, installationId = 5678): FakeApp {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const issued: FakeApp["issued"] = [];
  const app: FakeApp = {
    appId,
    installationId,
    privateKey: pem,
    issued,
    lifetimeMs: 3_600_000,
    valid: (token) => issued.some((t) => t.token === token && t.expiresAt > Date.now()),
    route: (req) => {
      const m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(req.url.pathname);
      if (m === null) return undefined;
      if (req.method !== "POST") return { status: 404, body: { message: "Not Found", documentation_url: DOCS } };
      const jwt = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
      const claims = jwt === undefined ? undefined : verifyJwt(jwt, publicKey);
      if (claims === undefined || claims.iss !== String(appId) || claims.exp * 1000 < Date.now())
        return {
          status: 401,
          body: { message: "A JSON web token could not be decoded", documentation_url: DOCS, status: "401" },
        };
      if (Number(m[1]) !== installationId)
        return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
      const token = `ghs_${randomBytes(18).toString("hex")}`;
      const expiresAt = Date.now() + app.lifetimeMs;
      issued.push({ token, expiresAt });
      return {
        status: 201,
        body: {
          token,
          expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
          permissions: { contents: "write", pull_requests: "write", issues: "write" },
          repository_selection: "all",
        },
      };
    },
  };
  return app;
}

function verifyJwt(
  jwt: string,
  publicKey: ReturnType<typeof createPublicKey>,
): { iss: string; exp: number } | undefined {
  const [header, payload, signature] = jwt.split(".");
  if (header === undefined || payload === undefined || signature === undefined) return undefined;
  const head = JSON.parse(Buffer.from(header, "base64url").toString()) as { alg?: string };
  if (head.alg !== "RS256") return undefined;
  const ok = createVerify("RSA-SHA256")
    .update(`${header}.${payload}`)
    .verify(publicKey, Buffer.from(signature, "base64url"));
  if (!ok) return undefined;
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { iss?: unknown; exp?: unknown };
  return { iss: String(claims.iss), exp: Number(claims.exp) };
}
