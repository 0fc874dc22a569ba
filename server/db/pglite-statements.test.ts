/**
 * Raw statements on the embedded PGlite (db/pglite-statements.ts through db/raw.ts): one protocol
 * message per call after the statement is described once, with the same rows, errors and locking
 * as PGlite's own `query`.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase, type Database } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";
import { REPARSE_NAMED_MS } from "./pglite-statements.ts";
import { rawStatement, runRaw } from "./raw.ts";

const everyType = rawStatement(
  "lite_test_every_type",
  `select $1::uuid as id, $2::int as n, $3::bigint as big, $4::numeric as price, $5::text as label, $6::boolean as flag,
          $7::timestamptz as at, $8::jsonb as doc, $9::text[] as tags, $10::uuid[] as ids, $11::text as nothing,
          $12::float8 as ratio`,
);
const insertRow = rawStatement("lite_test_insert", "insert into lite_rows (id, label) values ($1, $2) returning id, label");
const countRows = rawStatement("lite_test_count", "select count(*)::int as n from lite_rows", (r) => r.n as number);
const namedLabel = rawStatement("lite_test_named_label", "select label from lite_rows where id = $1", (r) => r.label as string, { prepared: true });
const namedInsert = rawStatement("lite_test_named_insert", "insert into lite_rows (id, label) values ($1, $2) returning label", (r) => r.label as string, { prepared: true });

describe("raw statements on PGlite", () => {
  let database: Database;
  let client: PGlite;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    if (database.driver.kind !== "pglite") throw new Error("expected PGlite");
    client = database.driver.client;
    await client.exec("create table lite_rows (id int primary key, label text not null)");
  }, 60_000);
  afterAll(async () => database?.close());

  const params = [
    "6f1c2a4e-0b7d-4c55-9a0e-2f9d8c3b1a70",
    42,
    "9007199254740993",
    "1.23456789012345678901",
    'quote " back\\slash, comma {brace}',
    true,
    new Date("2026-12-02T10:11:12.345Z"),
    { nested: { lots: "0.10" }, list: [1, 2] },
    ["a,b", "", null, "NULL", "é ✓"],
    ["6f1c2a4e-0b7d-4c55-9a0e-2f9d8c3b1a70"],
    null,
    0.1,
  ];

  it("returns the rows PGlite's own query returns, for every type the copy path sends and reads", async () => {
    const expected = (await client.query(everyType.text, params)).rows;
    expect(await runRaw(database.db, everyType, params)).toEqual(expected);
    // Described once, then sent again with other values: the same decoding.
    const other = [...params];
    other[1] = -7;
    other[8] = [];
    expect(await runRaw(database.db, everyType, other)).toEqual((await client.query(everyType.text, other)).rows);
  });

  it("makes one call into the backend per statement once described, outside and inside a transaction", async () => {
    const raw = vi.spyOn(client, "execProtocolRawSync");
    const stream = vi.spyOn(client, "execProtocolStream");
    try {
      await runRaw(database.db, countRows, []);
      raw.mockClear();
      await runRaw(database.db, countRows, []);
      await runRaw(database.db, countRows, []);
      expect(raw).toHaveBeenCalledTimes(2);
      await database.db.transaction(async (tx) => {
        raw.mockClear();
        stream.mockClear();
        await runRaw(tx, countRows, []);
        expect(raw).toHaveBeenCalledTimes(1);
        // PGlite's own query goes through six stream calls; none here.
        expect(stream).not.toHaveBeenCalled();
      });
    } finally {
      raw.mockRestore();
      stream.mockRestore();
    }
  });

  it("runs inside the transaction it is given: its rows are seen there and undone by a rollback", async () => {
    const before = (await runRaw(database.db, countRows, []))[0]!;
    await expect(
      database.db.transaction(async (tx) => {
        expect(await runRaw(tx, insertRow, [1, "one"])).toEqual([{ id: 1, label: "one" }]);
        expect(await runRaw(tx, countRows, [])).toEqual([before + 1]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await runRaw(database.db, countRows, [])).toEqual([before]);
  });

  it("a statement outside a transaction waits for the open one instead of running inside it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const tx = database.db.transaction(async (t) => {
      await runRaw(t, insertRow, [2, "two"]);
      opened();
      await held;
      await t.execute(sql`update lite_rows set label = 'two, committed' where id = 2`);
    });
    await isOpen;
    const outside = runRaw(database.db, rawStatement("lite_test_label", "select label from lite_rows where id = $1", (r) => r.label as string), [2]);
    release();
    await tx;
    expect(await outside).toEqual(["two, committed"]);
  });

  it("throws the backend's error (code, constraint) and leaves the database usable", async () => {
    await runRaw(database.db, insertRow, [3, "three"]);
    const err = await runRaw(database.db, insertRow, [3, "again"]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(err, "lite_rows_pkey")).toBe(true);
    expect(await runRaw(database.db, insertRow, [4, "four"])).toEqual([{ id: 4, label: "four" }]);
    // Inside a transaction the error aborts it, as with query; the transaction rolls back whole.
    await expect(
      database.db.transaction(async (tx) => {
        await runRaw(tx, insertRow, [5, "five"]);
        await runRaw(tx, insertRow, [3, "again"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(await runRaw(database.db, rawStatement("lite_test_ids", "select id from lite_rows order by id", (r) => r.id as number), [])).toEqual([
      ...(await client.query<{ id: number }>("select id from lite_rows order by id")).rows.map((r) => r.id),
    ]);
    expect((await client.query("select 1 from lite_rows where id = 5")).rows).toEqual([]);
  });

  it("parses a named statement once, then only binds it; parses it again after REPARSE_NAMED_MS", async () => {
    const prepared = async () => (await client.query<{ name: string }>("select name from pg_prepared_statements where name like 'lite_test_named%' order by name")).rows.map((r) => r.name);
    await client.exec("deallocate all");
    const raw = vi.spyOn(client, "execProtocolRawSync");
    // Each call's frontend messages by type byte, e.g. "BES" for Bind, Execute, Sync.
    const sent = () => raw.mock.calls.map(([message]) => messageTypes(message));
    let now = 1_000_000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      await runRaw(database.db, namedInsert, [10, "ten"]);
      expect(await prepared()).toEqual(["lite_test_named_insert"]);
      raw.mockClear();
      expect(await runRaw(database.db, namedLabel, [10])).toEqual(["ten"]);
      expect(await runRaw(database.db, namedLabel, [10])).toEqual(["ten"]);
      // Close + Parse + Describe + Sync once, then Bind + Execute + Sync: no Parse.
      expect(sent()).toEqual(["CPDS", "BES", "BES"]);
      raw.mockClear();
      now += REPARSE_NAMED_MS + 1;
      expect(await runRaw(database.db, namedLabel, [10])).toEqual(["ten"]);
      expect(sent()).toEqual(["CPDS", "BES"]);
      expect(await prepared()).toEqual(["lite_test_named_insert", "lite_test_named_label"]);
    } finally {
      clock.mockRestore();
      raw.mockRestore();
    }
  });

  it("parses a named statement again when the database no longer has it; one first parsed in a rolled-back transaction stays usable", async () => {
    await runRaw(database.db, namedLabel, [10]);
    // Nothing in the server deallocates; outside a transaction the statement is parsed again once.
    await client.exec("deallocate all");
    expect(await runRaw(database.db, namedLabel, [10])).toEqual(["ten"]);
    // Prepared statements are not transactional: one parsed inside a transaction that rolls back is kept.
    const firstInTransaction = rawStatement("lite_test_named_in_tx", "insert into lite_rows (id, label) values ($1, $2) returning id", (r) => r.id as number, { prepared: true });
    await expect(
      database.db.transaction(async (tx) => {
        expect(await runRaw(tx, firstInTransaction, [11, "eleven"])).toEqual([11]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await runRaw(database.db, namedLabel, [11])).toEqual([]);
    const raw = vi.spyOn(client, "execProtocolRawSync");
    try {
      expect(await runRaw(database.db, firstInTransaction, [11, "eleven again"])).toEqual([11]);
      expect(raw).toHaveBeenCalledTimes(1);
    } finally {
      raw.mockRestore();
    }
  });

  it("refuses a statement on a transaction that has ended", async () => {
    let ended: Parameters<Parameters<Database["db"]["transaction"]>[0]>[0] | undefined;
    await database.db.transaction(async (tx) => {
      ended = tx;
    });
    await expect(runRaw(ended!, countRows, [])).rejects.toThrow("Transaction is closed");
  });
});

/** The type byte of each frontend message in `bytes` (type, then a 4-byte length that counts itself), as text. */
function messageTypes(bytes: Uint8Array): string {
  let types = "";
  for (let i = 0; i < bytes.length; i += 1 + ((bytes[i + 1]! << 24) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 8) | bytes[i + 4]!)) {
    types += String.fromCharCode(bytes[i]!);
  }
  return types;
}
