/**
 * The Expert Advisor download (issue 10 "Getting them to users"): one zip of the repository's
 * terminals/MQL4 and terminals/MQL5 sources, laid out exactly like a terminal's data folder
 * (`MQL5/Experts/CopyBridge/*.mq5`, `MQL5/Include/CopyBridge/*.mqh`, the same under `MQL4/`),
 * plus README-CopyBridge.txt with the connect steps. Only .mq4/.mq5/.mqh files under those two
 * folders are taken; nothing else in terminals/ (the harness above all) ever reaches the zip.
 */
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { type Zippable, zipSync } from "fflate";
import { EA_README_NAME, eaReadmeText } from "./ea-readme.ts";

/** The two folders of terminals/ that are copied into a terminal's data folder. */
export const EA_PLATFORM_DIRS = ["MQL4", "MQL5"] as const;

const MQL_SOURCE = /\.(mq4|mq5|mqh)$/i;

export interface EaBundle {
  /** The zip file's bytes. */
  zip: Buffer;
  /** Strong HTTP entity tag of `zip` (quoted, sha-256 based). */
  etag: string;
  /** Zip entry paths (forward slashes, sorted), README-CopyBridge.txt last. */
  entries: string[];
}

/** Subfolder entries of `dir`, or [] when it does not exist. Other I/O errors propagate. */
async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Relative paths (forward slashes) of the MQL source files below `dir`, depth first. */
async function walk(dir: string, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await entriesOf(dir)) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await walk(join(dir, entry.name), rel)));
    else if (entry.isFile() && MQL_SOURCE.test(entry.name)) found.push(rel);
  }
  return found;
}

/**
 * Paths relative to `terminalsDir` (e.g. `MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5`) of every
 * .mq4/.mq5/.mqh file under its MQL4/ and MQL5/ folders, sorted. Empty when there is none (or the
 * folder is missing). Throws on I/O errors other than a missing folder.
 */
export async function listEaSources(terminalsDir: string): Promise<string[]> {
  const lists = await Promise.all(EA_PLATFORM_DIRS.map((platform) => walk(join(terminalsDir, platform), platform)));
  return lists.flat().sort();
}

/**
 * Builds the download from the files on disk under `terminalsDir`. Each entry keeps its file's
 * modification time (the readme takes the newest), so the same files always give the same bytes
 * and ETag. Returns null when there is no EA source to ship. Throws on read errors.
 */
export async function buildEaBundle(terminalsDir: string): Promise<EaBundle | null> {
  const sources = await listEaSources(terminalsDir);
  if (sources.length === 0) return null;
  const files: Zippable = {};
  let newest = 0;
  for (const rel of sources) {
    const path = join(terminalsDir, ...rel.split("/"));
    const [bytes, info] = await Promise.all([readFile(path), stat(path)]);
    // DOS time stamps cannot say anything before 1980 (fflate throws): clamp odd checkouts.
    const mtime = Math.max(info.mtimeMs, Date.UTC(1980, 0, 2));
    newest = Math.max(newest, mtime);
    files[rel] = [new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { mtime }];
  }
  files[EA_README_NAME] = [new TextEncoder().encode(eaReadmeText()), { mtime: newest }];
  const zipped = zipSync(files, { level: 9 });
  const zip = Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
  const etag = `"${createHash("sha256").update(zip).digest("base64url")}"`;
  return { zip, etag, entries: [...sources, EA_README_NAME] };
}

/**
 * Whether an If-None-Match header value matches `etag` (RFC 9110 §13.1.2: weak comparison, a list
 * of tags or `*`).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}
