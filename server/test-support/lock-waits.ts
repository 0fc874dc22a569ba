/**
 * Helpers of the PostgreSQL lock tests (*-lock-postgres.test.ts): a transaction held open on another
 * connection of the test database, and whether a piece of work answers or still waits (for a lock).
 */
import type { Database } from "../db/client.ts";

/** A transaction on another connection of `database`, `statement` run in it (its locks held); `end` rolls it back. */
export async function holdOnOtherConnection(database: Database, statement: string, params: unknown[]): Promise<{ end: () => Promise<void> }> {
  if (database.driver.kind !== "postgres") throw new Error("PostgreSQL expected");
  const conn = await database.driver.pool.connect();
  await conn.query("begin");
  await conn.query(statement, params);
  return {
    end: async () => {
      await conn.query("rollback");
      conn.release();
    },
  };
}

/** "answered" when `work` settles first, "waiting" once `ms` pass (the caller still awaits the work afterwards). */
export function answeredWithin(ms: number, work: Promise<unknown>): Promise<"answered" | "waiting"> {
  let timer: NodeJS.Timeout | undefined;
  const waiting = new Promise<"waiting">((resolve) => (timer = setTimeout(() => resolve("waiting"), ms)));
  return Promise.race([work.then(() => "answered" as const), waiting]).finally(() => clearTimeout(timer));
}
