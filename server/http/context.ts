/**
 * Dependencies every feature receives: config, database, realtime hub. Built once by main.ts
 * (or a test) and passed explicitly — no module-level singletons.
 */
import type { ApiKeyScope, Tenant, User } from "#contract";
import type { Config } from "../config.ts";
import type { Db, DatabaseKind } from "../db/client.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import type { SecretBox } from "../features/api-keys/secret-box.ts";
import type { OrderDelivery } from "../features/copy-engine/delivery/delivery.ts";
import type { DomainEvents } from "../events/domain-events.ts";
import type { AccountLocks } from "../db/account-locks.ts";

export interface AppContext {
  config: Config;
  /** Durable database handle (the default). */
  db: Db;
  /** Same database, commits not waiting for the WAL flush — only for the writes listed in db/relaxed-commit.ts. */
  relaxedDb: Db;
  /** The idempotency markers' handle (db/client.ts Database.idempotencyDb: why a pool of its own). */
  idempotencyDb: Db;
  dbKind: DatabaseKind;
  hub: RealtimeHub;
  /** Encrypts API key secrets at rest. */
  secrets: SecretBox;
  /** Hands new slave orders to waiting long-polls and streams (in-process). */
  delivery: OrderDelivery;
  /** Post-commit domain events (alerts observe them). */
  events: DomainEvents;
  /** Cross-instance lock per account (PostgreSQL only; db/account-locks.ts). Absent on PGlite: one process. */
  accountLocks?: AccountLocks;
}

/** Who is calling: a dashboard session, or a signed API key (bridge or DASHBOARD scope). */
export type RequestAuth =
  | { via: "session"; tenantId: string; userId: string; sessionId: string; user: User; tenant: Tenant }
  | { via: "api_key"; tenantId: string; apiKeyId: string; scope: ApiKeyScope; accountId: string | null };

declare module "fastify" {
  interface FastifyRequest {
    auth: RequestAuth | null;
    /** Exact request body bytes (JSON requests), for signature checks and idempotency hashing. */
    rawBody: Buffer | null;
  }
}
