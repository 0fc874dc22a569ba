/**
 * PostgreSQL only (TEST_DATABASE_URL): the pools' connections send the statements queued in one
 * turn in one write (coalescing-socket.ts), in order, and a statement queued in a later turn is
 * not held back. Counted at the socket's write to the kernel (`_writev` / `_write`).
 */
import type net from "node:net";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../test-support/context.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("coalesced writes on PostgreSQL connections", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("postgres");
  }, 60_000);
  afterAll(async () => t?.close());

  /** A connection of the durable pool and a counter of its socket's writes to the kernel. */
  async function countedConnection(): Promise<{ conn: pg.PoolClient; writes: () => number; done: () => void }> {
    if (t.database.driver.kind !== "postgres") throw new Error("postgres only");
    const conn = await t.database.driver.pool.connect();
    const socket = (conn as unknown as { connection: { stream: net.Socket } }).connection.stream as net.Socket & Record<"_writev" | "_write", (...a: unknown[]) => unknown>;
    let n = 0;
    const writev = socket._writev.bind(socket);
    const write = socket._write.bind(socket);
    socket._writev = (...a: unknown[]) => {
      n++;
      return writev(...a);
    };
    socket._write = (...a: unknown[]) => {
      n++;
      return write(...a);
    };
    return {
      conn,
      writes: () => n,
      done: () => {
        socket._writev = writev;
        socket._write = write;
        conn.release();
      },
    };
  }

  it("sends the statements of one turn in one write, answered in order", async () => {
    const c = await countedConnection();
    try {
      const before = c.writes();
      const answers = await Promise.all([
        c.conn.query("select 1 as v"),
        c.conn.query({ text: "select $1::int as v", values: [2] }),
        c.conn.query({ name: "coalescing_test", text: "select $1::int + 1 as v", values: [2] }),
      ]);
      expect(answers.map((a) => a.rows[0].v)).toEqual([1, 2, 3]);
      expect(c.writes() - before).toBe(1);
    } finally {
      c.done();
    }
  });

  it("sends a statement of a later turn in its own write, without waiting for a timer", async () => {
    const c = await countedConnection();
    try {
      const before = c.writes();
      const first = c.conn.query("select 1 as v");
      await new Promise((resolve) => setImmediate(resolve));
      expect(c.writes() - before).toBe(1);
      const second = c.conn.query("select 2 as v");
      expect((await Promise.all([first, second])).map((a) => a.rows[0].v)).toEqual([1, 2]);
      expect(c.writes() - before).toBe(2);
    } finally {
      c.done();
    }
  });
});
