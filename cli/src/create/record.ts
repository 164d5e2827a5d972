import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The file in a scaffold that records what it was generated from: the
 * template and its version, the answers, and a hash of every file as
 * generated. `create-channel update` reads it to tell the files the user
 * changed (left alone) from those it may bring to a newer template. It is
 * meant to be committed; it is not published (package.json `files`).
 */
export const RECORD_FILE = ".create-channel.json";

/** The answers a scaffold was generated with, enough to generate it again. */
export interface RecordedAnswers {
  name: string;
  packageName: string;
  description: string;
  author: string;
  /** package.json `license` (an SPDX id). */
  license: string;
  year: string;
  /** Only when `--sdk` chose another `@errand/channel-sdk` spec than the release's. */
  sdkSpec?: string;
}

/** What {@link RECORD_FILE} holds. */
export interface ScaffoldRecord {
  template: string;
  /** The template's version: the `@errand/cli` version that generated the files. */
  version: string;
  answers: RecordedAnswers;
  /** Path (with `/`) → sha256 of the file as the template generated it. */
  files: Record<string, string>;
}

/** The record is not what `create-channel` writes: the message says where and what to do. */
export class ScaffoldRecordError extends Error {
  override readonly name = "ScaffoldRecordError";
  readonly code = "ERR_SCAFFOLD_RECORD";
}

/** The sha256 of a file's bytes, hex. */
export const hashOf = (content: Buffer | string): string => createHash("sha256").update(content).digest("hex");

/** Hashes `files` (paths relative to `dir`) as they are now in `dir`. */
export async function hashFiles(dir: string, files: string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const file of files) hashes[file] = hashOf(await readFile(join(dir, file)));
  return hashes;
}

/** Writes the record into `dir` (through a temporary file, so that it is never half written). */
export async function writeRecord(dir: string, record: ScaffoldRecord): Promise<void> {
  const temporary = join(dir, `${RECORD_FILE}.tmp`);
  await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`);
  await rename(temporary, join(dir, RECORD_FILE));
}

const isText = (value: unknown): value is string => typeof value === "string";

/** Reads the record of the scaffold in `dir`; undefined when there is none (a scaffold from before records existed). */
export async function readRecord(dir: string): Promise<ScaffoldRecord | undefined> {
  const file = join(dir, RECORD_FILE);
  if (!existsSync(file)) return undefined;
  const problem = (what: string) =>
    new ScaffoldRecordError(
      `${file} ${what}; restore it from version control, or delete it to update as if every file had been changed by you`,
    );
  let record: Partial<ScaffoldRecord>;
  try {
    record = JSON.parse(await readFile(file, "utf8")) as Partial<ScaffoldRecord>;
  } catch (error) {
    throw problem(`is not valid JSON (${(error as Error).message})`);
  }
  const answers = record?.answers as Partial<RecordedAnswers> | undefined;
  if (!isText(record?.template) || !isText(record.version)) throw problem("lacks its template or version");
  if (
    !answers
    || ![answers.name, answers.packageName, answers.description, answers.author, answers.license, answers.year].every(
      isText,
    )
  )
    throw problem("lacks some of its answers");
  if (answers.sdkSpec !== undefined && !isText(answers.sdkSpec)) throw problem("has an sdkSpec that is not a string");
  const files = record.files;
  if (typeof files !== "object" || files === null || !Object.values(files).every(isText))
    throw problem("lacks the hashes of its files");
  return record as ScaffoldRecord;
}
