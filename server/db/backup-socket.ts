/**
 * How `npm run backup` gets a backup from a running server: the server listens on a local socket
 * (a Unix socket in a private 0700 temporary folder; a named pipe on Windows) whose path it
 * records in the data folder's lock file. Whoever can read the lock file can read the database
 * files too, so the socket needs no other authentication, and nothing is exposed over TCP.
 *
 * Exchange: the client writes `backup\n`; the server answers one JSON line
 * (`{"ok":true,"bytes":N}` or `{"ok":false,"error":"…"}`) followed by N bytes of backup file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { createBackup } from "./backup-file.ts";

/** A listening backup socket. */
export interface BackupSocket {
  path: string;
  close(): Promise<void>;
}

/** Serves backups of `client` (folder `dataDir`) on a fresh local socket. */
export async function serveBackups(client: PGlite, dataDir: string, log: (msg: string, err?: unknown) => void): Promise<BackupSocket> {
  const folder = process.platform === "win32" ? null : mkdtempSync(join(tmpdir(), "copybridge-"));
  const path = folder ? join(folder, "backup.sock") : `\\\\.\\pipe\\copybridge-${randomUUID()}`;
  const answer = async (socket: Socket) => {
    try {
      const bytes = await createBackup(client, dataDir);
      socket.write(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`);
      socket.end(bytes);
    } catch (err) {
      log("backup failed", err);
      socket.end(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`);
    }
  };
  const server = createServer((socket) => {
    socket.on("error", (err) => log("backup socket client error", err));
    let request = "";
    socket.on("data", (chunk: Buffer) => {
      request += chunk.toString();
      if (!request.includes("\n")) return;
      socket.removeAllListeners("data");
      if (request.startsWith("backup\n")) void answer(socket);
      else socket.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          if (folder) rmSync(folder, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** Asks the server listening on `path` for a backup; resolves to the backup file's bytes. */
export function requestBackup(path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    socket.on("connect", () => socket.write("backup\n"));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const nl = all.indexOf(0x0a);
      if (nl < 0) return reject(new Error("the server closed the backup connection without an answer"));
      const head = JSON.parse(all.subarray(0, nl).toString()) as { ok: boolean; bytes?: number; error?: string };
      if (!head.ok) return reject(new Error(`the server could not make a backup: ${head.error ?? "unknown error"}`));
      const body = all.subarray(nl + 1);
      if (body.length !== head.bytes) return reject(new Error(`backup cut short: ${body.length} of ${head.bytes} bytes`));
      resolve(body);
    });
  });
}
