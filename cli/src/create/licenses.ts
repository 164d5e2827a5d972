import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The licenses a scaffold can carry, as SPDX ids (package.json `license`); the first is the default. */
export const LICENSES = ["MIT", "Apache-2.0", "ISC"] as const;

/** One of {@link LICENSES}. */
export type LicenseId = (typeof LICENSES)[number];

/** The folder beside the templates that holds each license's text, `<id>.txt`. */
export const LICENSES_FOLDER = "licenses";

/** True when `id` is a license the scaffolder writes. */
export const isLicense = (id: string): id is LicenseId => (LICENSES as readonly string[]).includes(id);

/** Who a scaffold's LICENSE names as the copyright holder: the author, or the package's authors when none was given. */
export const copyrightHolder = (author: string, packageName: string): string =>
  author.trim() || `the ${packageName} authors`;

/** The text of the LICENSE file, with the year and copyright holder filled in. */
export async function licenseText(templatesRoot: string, id: LicenseId, year: string, holder: string): Promise<string> {
  const text = await readFile(join(templatesRoot, LICENSES_FOLDER, `${id}.txt`), "utf8");
  return text.replaceAll("{{year}}", year).replaceAll("{{copyrightHolder}}", holder);
}
