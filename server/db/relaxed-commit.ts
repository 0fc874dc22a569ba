/**
 * Which writes may use `relaxedDb` (Database.relaxedDb, sessions with synchronous_commit = off).
 *
 * On PostgreSQL a durable commit waits for fsync (≈3 ms on the reference machine). On the hot
 * bridge path only the master signal's outbox transaction must be durable. These writes are
 * recovered by the protocol itself if a *database* crash loses their last milliseconds, so they
 * commit without waiting for the flush (and, being one statement, in one round trip):
 * - poll claims and hand-out marks (an unreported order is redelivered anyway),
 * - execution reports and heartbeats (an unreported order is redelivered and the EA re-reports),
 * - replay-cache records and `lastUsedAt` (a lost replay record only matters within its 60 s),
 * - the idempotency `in_flight` marker (it guards concurrency; the `done` record is durable) — on
 *   a relaxed pool of its own on PostgreSQL (client.ts `idempotencyDb`).
 * - NOTIFY statements to the other instances (realtime/cluster.ts: they write nothing; a lost
 *   notice is made up by the poll's safety-net re-check).
 * A crash of the server process alone loses none of them: PostgreSQL still has the commit.
 * Several of them are written per turn of the event loop in ONE statement (db/tick-batch.ts):
 * replay records, polls' signs of life, hand-out records. Each caller still awaits the statement
 * that carries its row, and a failed statement fails every request in it: a request is never
 * answered as if its write had happened when it did not.
 * Dashboard changes and signals always use the durable `db`.
 */
export {};
