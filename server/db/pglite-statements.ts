/**
 * Fixed statements on the embedded PGlite in ONE protocol message per call (db/raw.ts's path there).
 *
 * PGlite's own `query(text, params)` makes six calls into the WebAssembly backend for every
 * statement — Parse, Describe statement (for the parameter types), Bind, Describe portal, Execute,
 * Sync — each through its stream decoder: measured at 320–450 µs for an update by primary key on a
 * table with eight indexes, against 245–310 µs for the same four protocol messages sent in one
 * call (Parse, Bind, Execute, Sync). A statement's parameter types and result columns cannot change
 * while the server runs (migrations run before it serves), so they are described once per database
 * and statement and reused: each later call is that one message, its rows decoded with the
 * columns described.
 *
 * A statement declared `prepared` (db/raw.ts: those whose plan cannot depend on the values —
 * inserts, updates by primary key, the signal's record) is parsed once under its name and then only
 * bound and executed: 130–190 µs for that update (parse and plan saved), and a signal's record, a
 * CTE of a few KB, is no longer parsed and planned on every event. Its generic plan (made on its
 * sixth run) would be kept until an `analyze` of its tables, which on PGlite only the hourly
 * retention does (no autovacuum runs in it, and its statistics counters are not flushed for
 * db/planner-stats.ts to read): made while a table was young, it could stay a young table's plan
 * as the table grows. So a named statement is parsed again after REPARSE_NAMED_MS, and its next
 * generic plan is made on the tables' current size. Every other statement stays unnamed: parsed
 * and planned with its call's values, as `query` plans it.
 *
 * Semantics kept from `query`: parameters written by the database's own serializers for the
 * described types (null stays NULL, otherwise `serializers[oid]` or `String(v)`), rows decoded by
 * its parsers (`parsers[oid]`, otherwise the text), object rows keyed by column name; a statement
 * outside a transaction waits for any open transaction (`_runExclusiveTransaction`) and syncs the
 * file system after, inside one only for the query lock; an error is the backend's
 * `DatabaseError` (code, constraint, detail …), after which the backend has skipped to Sync as
 * with `query`. A transaction handle this module did not see opened (`trackTransactions`) falls
 * back to its own `query`.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser.js";
import type { BackendMessage, DatabaseError, DataRowMessage, ParameterDescriptionMessage, RowDescriptionMessage } from "pg-protocol/dist/messages.js";

/** A statement as db/raw.ts declares it: unique name, fixed text, whether it is kept by name. */
export interface EmbeddedStatement {
  readonly name: string;
  readonly text: string;
  readonly prepared: boolean;
}

/** A statement's shape as the database described it: parameter type oids and result columns. */
interface Described {
  readonly paramOids: readonly number[];
  readonly columns: readonly { readonly name: string; readonly oid: number }[];
  /** A named statement: when it was parsed under its name (performance.now() ms); unnamed: null. */
  readonly parsedAt: number | null;
}

/**
 * How long a named statement is kept before it is parsed again (ms). Its generic plan is made on
 * its sixth run and kept until an `analyze` of one of its tables, which on PGlite only the hourly
 * retention does (autovacuum does not run in it, and its statistics counters are not flushed for
 * db/planner-stats.ts to read); parsed again, the next generic plan is made on the tables' current
 * size. A minute is autovacuum's own bound on PostgreSQL (`autovacuum_naptime`).
 */
export const REPARSE_NAMED_MS = 60_000;

/** Per database: each statement's description. */
const described = new WeakMap<PGlite, Map<EmbeddedStatement, Described>>();
/** Transactions opened through a tracked database → that database (their backend). */
const transactionRoots = new WeakMap<Transaction, PGlite>();
/** Handles (a PGlite or a transaction) whose statements are watched → the watcher. */
const watchers = new WeakMap<object, (text: string) => void>();

/**
 * Calls `onText` with the text of each statement later run here through `handle` (the PGlite or
 * the transaction itself, not others on the same database): for tests that count statements
 * (test-support/context.ts `recordStatements`), since these never pass through `handle.query`.
 */
export function watchStatements(handle: object, onText: (text: string) => void): void {
  watchers.set(handle, onText);
}

/**
 * Makes `client`'s transactions known to this module: wraps `client.transaction` so each
 * transaction handle maps back to `client` (a PGlite transaction object does not say whose it is).
 * Call once, before the database is used (db/client.ts).
 */
export function trackTransactions(client: PGlite): void {
  const original = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    original((tx) => {
      transactionRoots.set(tx, client);
      return callback(tx);
    });
}

/** The database behind `handle` (a PGlite or a tracked transaction), or null when unknown. */
export function embeddedBackend(handle: object): { root: PGlite; tx: Transaction | null } | null {
  if (typeof (handle as Partial<PGlite>).execProtocolRawSync === "function") return { root: handle as PGlite, tx: null };
  const root = transactionRoots.get(handle as Transaction);
  return root ? { root, tx: handle as Transaction } : null;
}

/** Sends one message (whole protocol messages ending with Sync) and decodes every reply. */
function exchange(root: PGlite, message: Buffer): BackendMessage[] {
  const out = root.execProtocolRawSync(message);
  // A view on the backend's reply buffer, valid until the next call: decoded at once.
  const replies: BackendMessage[] = [];
  new Parser().parse(Buffer.from(out.buffer, out.byteOffset, out.byteLength), (m) => replies.push(m));
  return replies;
}

/** The backend's error among the replies, if any. */
function errorIn(replies: BackendMessage[]): DatabaseError | undefined {
  return replies.find((m): m is DatabaseError => m.name === "error");
}

/** Parses `stmt` (under its name when `prepared`, replacing what that name held) and describes it. */
function describe(root: PGlite, stmt: EmbeddedStatement): Described {
  const name = stmt.prepared ? stmt.name : "";
  const replies = exchange(
    root,
    Buffer.concat([
      ...(stmt.prepared ? [serialize.close({ type: "S", name })] : []),
      serialize.parse({ name, text: stmt.text, types: [] }),
      serialize.describe({ type: "S", name }),
      serialize.sync(),
    ]),
  );
  const error = errorIn(replies);
  if (error) throw error;
  const params = replies.find((m): m is ParameterDescriptionMessage => m.name === "parameterDescription");
  const rows = replies.find((m): m is RowDescriptionMessage => m.name === "rowDescription");
  return {
    paramOids: params ? [...params.dataTypeIDs] : [],
    columns: rows ? rows.fields.map((f) => ({ name: f.name, oid: f.dataTypeID })) : [],
    parsedAt: stmt.prepared ? performance.now() : null,
  };
}

/** The statement's description, parsing it (again) when it is new here or its name has aged. */
function shapeOf(root: PGlite, stmt: EmbeddedStatement): Described {
  let shapes = described.get(root);
  if (!shapes) {
    shapes = new Map();
    described.set(root, shapes);
  }
  let shape = shapes.get(stmt);
  if (!shape || (shape.parsedAt !== null && performance.now() - shape.parsedAt > REPARSE_NAMED_MS)) {
    // Forgotten first: if the parse fails, the next call parses again.
    shapes.delete(stmt);
    shape = describe(root, stmt);
    shapes.set(stmt, shape);
  }
  return shape;
}

function run(root: PGlite, stmt: EmbeddedStatement, params: readonly unknown[], retry = true): Record<string, unknown>[] {
  const { paramOids, columns, parsedAt } = shapeOf(root, stmt);
  const values = params.map((v, i) => {
    if (v === null || v === undefined) return null;
    const write = root.serializers[paramOids[i] ?? 0];
    // As PGlite's query: a type without a serializer is sent as the value's own toString().
    return write ? write(v) : (v as { toString(): string }).toString();
  });
  const replies = exchange(
    root,
    Buffer.concat([
      ...(parsedAt === null ? [serialize.parse({ text: stmt.text, types: paramOids as number[] })] : []),
      serialize.bind({ statement: parsedAt === null ? "" : stmt.name, values }),
      serialize.execute({}),
      serialize.sync(),
    ]),
  );
  const error = errorIn(replies);
  if (error) {
    // 26000 invalid_sql_statement_name: the named statement is gone (a `deallocate all`; nothing in
    // the server sends one). Parsed again once; inside a transaction the error has already aborted
    // it, so the retry fails there with the transaction's own error.
    if (error.code === "26000" && parsedAt !== null && retry) {
      described.get(root)?.delete(stmt);
      return run(root, stmt, params, false);
    }
    throw error;
  }
  const rows: Record<string, unknown>[] = [];
  for (const m of replies) {
    if (m.name !== "dataRow") continue;
    const fields = (m as DataRowMessage).fields;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const col = columns[i]!;
      // Text format (Bind asks for no binary column): a string or NULL.
      const v = (fields[i] ?? null) as string | null;
      const read = root.parsers[col.oid];
      row[col.name] = v === null ? null : read ? read(v, col.oid) : v;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Runs `stmt` with `params` ($1 … in order) on `backend` and returns its rows as `query` would.
 * Errors: the backend's `DatabaseError`; "Transaction is closed" for a finished transaction.
 */
export async function runEmbedded(backend: { root: PGlite; tx: Transaction | null }, stmt: EmbeddedStatement, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
  const { root, tx } = backend;
  watchers.get(tx ?? root)?.(stmt.text);
  if (tx) {
    if (tx.closed) throw new Error("Transaction is closed");
    // The transaction holds the transaction lock already; statements inside take the query lock.
    return root.runExclusive(async () => run(root, stmt, params));
  }
  await root._checkReady();
  return root._runExclusiveTransaction(() =>
    root.runExclusive(async () => {
      const rows = run(root, stmt, params);
      await root.syncToFs();
      return rows;
    }),
  );
}
