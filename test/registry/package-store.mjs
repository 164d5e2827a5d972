// The packages published to the test registry, in memory: each packument as
// npm's publish sent it (one version at a time), and each version's tarball.
import { createHash } from "node:crypto";

/** A publish the registry refuses: the HTTP status and npm's `error` text. */
export class PublishError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.name = "PublishError";
    this.status = status;
  }
}

/** The file name npm gives a version's tarball: the unscoped name, the version. */
export const tarballFile = (/** @type {string} */ name, /** @type {string} */ version) =>
  `${name.replace(/^@[^/]+\//, "")}-${version}.tgz`;

const sha = (/** @type {string} */ algorithm, /** @type {Buffer} */ data, /** @type {"hex" | "base64"} */ encoding) =>
  createHash(algorithm).update(data).digest(encoding);

/**
 * Checks a publish body (libnpmpublish's: the packument with one version and
 * its tarball base64 in `_attachments`) against the name in the URL and the
 * integrity the client computed; returns the version and its tarball.
 * @param {string} name
 * @param {any} body
 */
function parsePublish(name, body) {
  if (typeof body !== "object" || body === null) throw new PublishError(400, "the body is not a JSON object");
  if (body.name !== name) throw new PublishError(400, `the body names ${JSON.stringify(body.name)}, the URL ${name}`);
  const versions = Object.keys(body.versions ?? {});
  const attachments = Object.values(body._attachments ?? {});
  if (versions.length !== 1 || attachments.length !== 1)
    throw new PublishError(400, "a publish carries exactly one version and one tarball");
  const version = /** @type {string} */ (versions[0]);
  const manifest = body.versions[version];
  const attachment = /** @type {{ data?: unknown, length?: unknown }} */ (attachments[0]);
  if (typeof attachment.data !== "string") throw new PublishError(400, "the tarball's data is missing");
  const tarball = Buffer.from(attachment.data, "base64");
  if (attachment.length !== tarball.length)
    throw new PublishError(400, `the tarball is ${tarball.length} bytes, not the ${attachment.length} declared`);
  if (
    manifest?.dist?.integrity !== `sha512-${sha("sha512", tarball, "base64")}`
    || manifest?.dist?.shasum !== sha("sha1", tarball, "hex")
  ) {
    throw new PublishError(400, "the tarball does not match the integrity and shasum of its version");
  }
  return { version, manifest, tarball, tags: /** @type {Record<string, string>} */ (body["dist-tags"] ?? {}) };
}

/** Creates an empty store. */
export function createPackageStore() {
  /** @type {Map<string, { packument: any, tarballs: Map<string, Buffer> }>} */
  const packages = new Map();
  return {
    /** @param {string} name */
    has: (name) => packages.has(name),
    /** The names and versions published so far. */
    list: () =>
      [...packages.values()].map((p) => ({ name: p.packument.name, versions: Object.keys(p.packument.versions) })),
    /**
     * Adds the version a publish body carries; refuses one already published.
     * @param {string} name @param {unknown} body
     */
    publish(name, body) {
      const { version, manifest, tarball, tags } = parsePublish(name, body);
      const entry = packages.get(name) ?? {
        packument: { _id: name, name, "dist-tags": {}, versions: {}, time: {} },
        tarballs: new Map(),
      };
      if (entry.packument.versions[version])
        throw new PublishError(403, `cannot publish over the previously published version ${version}`);
      const now = new Date().toISOString();
      entry.packument.versions[version] = manifest;
      entry.packument.time = {
        ...entry.packument.time,
        created: entry.packument.time.created ?? now,
        modified: now,
        [version]: now,
      };
      Object.assign(entry.packument["dist-tags"], tags);
      for (const field of ["description", "readme", "license", "repository", "keywords"])
        if (manifest[field] !== undefined) entry.packument[field] = manifest[field];
      entry.tarballs.set(tarballFile(name, version), tarball);
      packages.set(name, entry);
      return version;
    },
    /**
     * The packument as npm install reads it, its tarballs served from `base`.
     * @param {string} name @param {string} base
     */
    packument(name, base) {
      const entry = packages.get(name);
      if (!entry) return undefined;
      const doc = structuredClone(entry.packument);
      for (const [version, manifest] of Object.entries(doc.versions)) {
        /** @type {any} */ (manifest).dist.tarball = `${base}/${name}/-/${tarballFile(name, version)}`;
      }
      return doc;
    },
    /** @param {string} name @param {string} file */
    tarball: (name, file) => packages.get(name)?.tarballs.get(file),
  };
}
