import { webcrypto, X509Certificate } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** A freshly generated certificate and key, as go-plugin's AutoMTLS makes them. */
export interface GeneratedCertificate {
  certPem: string;
  keyPem: string;
  /** The DER certificate in unpadded standard base64, as go-plugin puts it on the handshake line. */
  certBase64: string;
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

function toPem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der)
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/**
 * Generates a self-signed ECDSA P-256 certificate for `localhost`, valid as
 * both server and client certificate and as its own CA, exactly the shape
 * go-plugin generates for AutoMTLS so a Go host accepts it as a root.
 */
export async function generateCertificate(): Promise<GeneratedCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    name: "CN=localhost, O=Errand",
    notBefore: new Date(now - 30_000),
    notAfter: new Date(now + 30 * 24 * 3600_000),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyCertSign,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: "dns", value: "localhost" },
        { type: "ip", value: "127.0.0.1" },
      ]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey);
  return {
    certPem: `${cert.toString("pem")}\n`,
    keyPem: toPem("PRIVATE KEY", pkcs8),
    certBase64: Buffer.from(cert.rawData).toString("base64").replace(/=+$/, ""),
  };
}

/** Turns the handshake line's certificate field (base64 DER, padded or not) into PEM; throws when it is not a certificate. */
export function certificateFieldToPem(field: string): string {
  const der = Buffer.from(field, "base64");
  // Parsing proves it is a certificate before we trust it as a root.
  const parsed = new X509Certificate(der);
  return parsed.toString();
}
