/**
 * Replay protection on the embedded database (replay-cache.ts LocalReplayWindow): the window is
 * checked in memory and written behind, one insert per second — a statement per signed request
 * was a quarter of what 500 idle slaves cost on PGlite (issue 15, goal 6) — and it survives a
 * restart through the table.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, recordStatements, type TestContext } from "../../test-support/context.ts";
import { LocalReplayWindow, rejectReplay } from "./replay-cache.ts";

describe("replay protection on PGlite", () => {
  let t: TestContext;
  let texts: string[] = [];
  // replay_cache holds the key's id without a reference: any id will do.
  const keyId = randomUUID();

  beforeAll(async () => {
    t = await createTestContext("pglite");
    texts = recordStatements(t.ctx.relaxedDb);
  });
  afterAll(async () => t?.close());

  const nowS = () => Math.floor(Date.now() / 1000);
  const inserts = () => texts.filter((s) => /insert into replay_cache/.test(s));

  it("refuses a signature seen in the window with 409 and writes the window's records in one statement", async () => {
    await rejectReplay(t.ctx.relaxedDb, keyId, "sig-1", nowS(), 60); // loads the window
    texts.length = 0;
    for (let i = 2; i <= 6; i++) await rejectReplay(t.ctx.relaxedDb, keyId, `sig-${i}`, nowS(), 60);
    await expect(rejectReplay(t.ctx.relaxedDb, keyId, "sig-3", nowS(), 60)).rejects.toMatchObject({ code: "replayed", status: 409 });
    expect(texts).toEqual([]); // nothing asked or written while the requests went on
    await new Promise((r) => setTimeout(r, 1_300));
    expect(inserts()).toHaveLength(1);
  });

  it("knows the window's signatures after a restart (a new window over the same table)", async () => {
    await new Promise((r) => setTimeout(r, 1_100)); // the records above are written
    const restarted = new LocalReplayWindow(t.ctx.relaxedDb);
    const record = (signature: string) => ({ apiKeyId: keyId, signature, expiresAt: new Date(Date.now() + 60_000) });
    expect(await restarted.admit(record("sig-4"))).toBe(false);
    expect(await restarted.admit(record("sig-new"))).toBe(true);
    expect(await restarted.admit(record("sig-new"))).toBe(false);
    // Past its timestamp's window a signature is no longer remembered (the timestamp check refuses it first).
    expect(await restarted.admit(record("sig-5"), Date.now() + 120_000)).toBe(true);
  });
});
