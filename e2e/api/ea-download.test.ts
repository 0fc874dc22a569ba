/**
 * The Expert Advisor download (issue 10): GET /downloads/copybridge-ea.zip without a login is a
 * zip of every .mq4/.mq5/.mqh under the repository's terminals/MQL4 and terminals/MQL5 (same
 * paths, same bytes) plus README-CopyBridge.txt, nothing from terminals/harness; ETag and
 * If-None-Match → 304; 404 JSON when the server has no EA folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";

const TERMINALS = fileURLToPath(new URL("../../terminals/", import.meta.url));
const DOWNLOAD = "/downloads/copybridge-ea.zip";
const README = "README-CopyBridge.txt";

/** Paths (relative to terminals/, forward slashes) of the MQL sources a user must receive. */
function repositorySources(): string[] {
  const found: string[] = [];
  for (const platform of ["MQL4", "MQL5"]) {
    let names: string[];
    try {
      names = readdirSync(join(TERMINALS, platform), { recursive: true, encoding: "utf8" });
    } catch {
      continue;
    }
    for (const name of names) if (/\.(mq4|mq5|mqh)$/i.test(name)) found.push(`${platform}/${name.split("\\").join("/")}`);
  }
  return found.sort();
}

describe.each(databaseKinds())("EA download on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("serves every EA source of terminals/MQL4 and MQL5 byte for byte, without a login, and nothing from the harness", async () => {
    const sources = repositorySources();
    expect(sources.length).toBeGreaterThan(0);

    const res = await fetch(server.url + DOWNLOAD);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="copybridge-ea.zip"');
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);

    const entries = unzipSync(bytes);
    expect(Object.keys(entries).sort()).toEqual([...sources, README].sort());
    for (const rel of sources) {
      expect(Buffer.from(entries[rel]!).equals(readFileSync(join(TERMINALS, rel))), rel).toBe(true);
    }
    expect(Object.keys(entries).filter((p) => p.startsWith("harness/") || p.includes("/harness/"))).toEqual([]);
    const readme = strFromU8(entries[README]!);
    expect(readme).toContain("File -> Open Data Folder");
    expect(readme).toContain("Allow WebRequest for listed URL");
  });

  it("answers 304 to a matching If-None-Match and the zip again to another tag", async () => {
    const first = await fetch(server.url + DOWNLOAD);
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();

    const again = await fetch(server.url + DOWNLOAD, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const weakInList = await fetch(server.url + DOWNLOAD, { headers: { "if-none-match": `"other", W/${etag}` } });
    expect(weakInList.status).toBe(304);
    await weakInList.arrayBuffer();

    const stale = await fetch(server.url + DOWNLOAD, { headers: { "if-none-match": '"stale"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await stale.arrayBuffer()).length).toBeGreaterThan(0);
  });

  it("answers 404 JSON when the server has no EA folder", async () => {
    // Its own database: two processes must not share one PGlite folder.
    const otherDb = await createTestDatabase(kind);
    const other = await startServer({ ...otherDb.env, TERMINALS_DIR: join(tmpdir(), "cb-no-terminals-here") }).catch(async (error: unknown) => {
      await otherDb.drop();
      throw error;
    });
    try {
      const res = await fetch(other.url + DOWNLOAD);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ error: "The Expert Advisor download is not available on this server", code: "not_found" });
    } finally {
      await other.stop();
      await otherDb.drop();
    }
  });
});
