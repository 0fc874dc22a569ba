/**
 * Backups of the embedded database with the real tools (`tools/backup.ts`, `tools/restore.ts`)
 * against a real server: a backup taken while a master keeps posting signals, restored into a
 * fresh folder, holds every signal acknowledged before the backup began, and a server started on
 * the restored folder verifies the same terminal keys (the secret key came along). Restore
 * refuses a folder that is not empty.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { signals } from "../../server/db/schema.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp } from "../support/tenant.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Runs `tools/<tool>.ts args` the way `npm run <tool> -- args` does; resolves to its exit and output. */
function runTool(tool: "backup" | "restore", args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `tools/${tool}.ts`, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe("backup and restore of the embedded database", () => {
  let db: TestDatabase;
  let server: RunningServer;
  let bridge: BridgeTenant;
  let work: string;

  beforeAll(async () => {
    db = await createTestDatabase("pglite");
    work = mkdtempSync(join(tmpdir(), "cb-backup-"));
    server = await startServer({ ...db.env, JOBS_DISABLED: "true" });
    const t = await signUp(server.url);
    bridge = await setUpBridge(t.api, server.url, 1);
  });
  afterAll(async () => {
    await bridge?.close();
    await server?.stop();
    await db?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it("a backup taken under load holds every signal acknowledged before it began, and restores into a working folder", async () => {
    const acknowledged: string[] = [];
    let posting = true;
    let ticket = 10_000;
    const poster = async () => {
      while (posting) {
        ticket += 1;
        const res = await bridge.master.signal(masterEvent("OPEN", { ticket }));
        if (res.status !== 201) throw new Error(`signal refused: ${res.status} ${JSON.stringify(res.body)}`);
        acknowledged.push(res.body.signalId);
      }
    };
    const posters = [poster(), poster()];
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 20));

    const before = [...acknowledged];
    const file = join(work, "under-load.cbbackup");
    const backup = await runTool("backup", [file], { DATA_DIR: db.env.DATA_DIR });
    const during = acknowledged.length - before.length;
    posting = false;
    await Promise.all(posters);
    expect(backup.output).toContain("running server");
    expect(backup.code, backup.output).toBe(0);
    expect(during, "signals went on being acknowledged while the backup ran").toBeGreaterThan(0);

    const restored = join(work, "restored");
    const restore = await runTool("restore", [file, restored], {});
    expect(restore.code, restore.output).toBe(0);
    expect(readFileSync(join(restored, "secret.key"), "utf8")).toBe(readFileSync(join(db.env.DATA_DIR, "secret.key"), "utf8"));

    const copy = await openDatabase({ dataDir: restored });
    try {
      const ids = new Set((await copy.db.select({ id: signals.id }).from(signals)).map((r) => r.id));
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await copy.close();
    }

    // The restored folder serves the same terminals: their key secrets decrypt with the restored key.
    const second = await startServer({ DATA_DIR: restored, JOBS_DISABLED: "true" });
    try {
      const { BridgeClient } = await import("../../tools/bridge-client/client.ts");
      const master = new BridgeClient(second.url, bridge.keys.master);
      const res = await master.signal(masterEvent("OPEN", { ticket: 99_999 }));
      await master.close();
      expect(res.status).toBe(201);
    } finally {
      await second.stop();
    }
  });

  it("restore refuses a folder that is not empty, and a file that is not a backup", async () => {
    const file = join(work, "under-load.cbbackup");
    const intoLive = await runTool("restore", [file, db.env.DATA_DIR], {});
    expect(intoLive.code).toBe(1);
    expect(intoLive.output).toContain(`${db.env.DATA_DIR} is not empty`);

    const notBackup = await runTool("restore", [join(db.env.DATA_DIR, "secret.key"), join(work, "fresh")], {});
    expect(notBackup.code).toBe(1);
    expect(notBackup.output).toContain("not a CopyBridge backup file");
    expect(existsSync(join(work, "fresh"))).toBe(false);
  });

  it("backs up a folder with no server running by opening it itself", async () => {
    await server.stop();
    const file = join(work, "offline.cbbackup");
    const backup = await runTool("backup", [file], { DATA_DIR: db.env.DATA_DIR });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain("no server running");
    expect(existsSync(join(db.env.DATA_DIR, "db.lock"))).toBe(false);
    const restore = await runTool("restore", [file, join(work, "offline")], {});
    expect(restore.code, restore.output).toBe(0);
  });
});
