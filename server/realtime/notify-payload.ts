/**
 * What instances sharing one PostgreSQL tell each other over LISTEN/NOTIFY (docs/architecture.md,
 * "Several instances"): ids only — the instance that sent it, the tenant, a kind and row ids. The
 * receiver loads the rows itself (tenant-scoped), so no tenant data travels through the channel
 * and a notification never carries more than PostgreSQL's 8000-byte payload limit allows.
 *
 * Kinds: `orders` (execution ids of pending slave orders just committed: a slave parked on
 * another instance claims them at once), `session_closed` (a revoked session: its dashboard
 * sockets close everywhere) and one kind per relayed dashboard message type (`new_signal`,
 * `execution_result`, …; ids of the rows the message shows).
 *
 * Wire form (JSON): `{"v":1,"i":"<instance>","t":"<tenant>","k":"<kind>","ids":["…"]}`.
 */
import { z } from "zod";
import type { ServerMessage } from "#contract";

/** The one channel every instance listens on. */
export const NOTIFY_CHANNEL = "copybridge_events";

/** PostgreSQL refuses payloads of 8000 bytes or more; the margin keeps us clear of it. */
export const MAX_PAYLOAD_BYTES = 7900;

const relayedTypes = [
  "new_signal",
  "signal_updated",
  "execution_result",
  "trade_closed",
  "account_created",
  "account_updated",
  "account_deleted",
  "tenant_updated",
  "sync_updated",
] as const satisfies readonly ServerMessage["type"][];

/** Dashboard message types that cross instances. */
export type RelayedType = (typeof relayedTypes)[number];
export type NoticeKind = "orders" | "session_closed" | RelayedType;

export interface Notice {
  /** The sending instance (an instance ignores its own notices: it already acted locally). */
  instance: string;
  tenantId: string;
  kind: NoticeKind;
  /** Row ids (uuid or bigint text); may be empty (`tenant_updated`). */
  ids: string[];
}

const idSchema = z.string().regex(/^[0-9A-Za-z-]{1,64}$/);
const wireSchema = z.object({
  v: z.literal(1),
  i: idSchema,
  t: idSchema,
  k: z.enum(["orders", "session_closed", ...relayedTypes]),
  ids: z.array(idSchema).max(400),
});

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/**
 * The notice as one or more payloads, each under `maxBytes`: the ids are split across payloads
 * (in order) when they do not fit in one. Always at least one payload.
 */
export function encodeNotice(n: Notice, maxBytes = MAX_PAYLOAD_BYTES): string[] {
  const wrap = (ids: string[]) => JSON.stringify({ v: 1, i: n.instance, t: n.tenantId, k: n.kind, ids });
  const base = bytes(wrap([]));
  const payloads: string[] = [];
  let chunk: string[] = [];
  let size = base;
  for (const id of n.ids) {
    // Each id costs its JSON text plus a comma.
    const cost = bytes(JSON.stringify(id)) + 1;
    if (chunk.length > 0 && size + cost > maxBytes) {
      payloads.push(wrap(chunk));
      chunk = [];
      size = base;
    }
    chunk.push(id);
    size += cost;
  }
  payloads.push(wrap(chunk));
  return payloads;
}

/** A payload back to a notice; null for anything malformed (logged by the caller, never thrown). */
export function decodeNotice(payload: string): Notice | null {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = wireSchema.safeParse(raw);
  if (!parsed.success) return null;
  const w = parsed.data;
  return { instance: w.i, tenantId: w.t, kind: w.k, ids: w.ids };
}

/** How encodeNotice's payloads from `instance` begin (`{"v":1,"i":"<instance>",`). */
const payloadPrefix = (instance: string): string => `{"v":1,"i":${JSON.stringify(instance)},`;
let ownPrefix = { instance: "", prefix: payloadPrefix("") };

/**
 * The notice to act on: null when it is malformed or this instance's own. An own notice — every
 * notice a lone instance hears, since it listens on the channel it notifies — is known by the
 * prefix encodeNotice gives it and dropped without being parsed and validated (up to 400 ids,
 * each against a pattern, for nothing).
 */
export function foreignNotice(payload: string, ownInstance: string): Notice | null {
  if (ownPrefix.instance !== ownInstance) ownPrefix = { instance: ownInstance, prefix: payloadPrefix(ownInstance) };
  if (payload.startsWith(ownPrefix.prefix)) return null;
  const n = decodeNotice(payload);
  return n && n.instance !== ownInstance ? n : null;
}

/**
 * The ids a dashboard message stands for, or null for messages that stay on their instance
 * (`heartbeat`, `connected`: per socket; `audit_log`: not published today — give it a loader in
 * message-loaders.ts before relaying it).
 */
export function noticeOf(message: ServerMessage): { kind: RelayedType; ids: string[] } | null {
  switch (message.type) {
    case "new_signal":
    case "signal_updated":
    case "execution_result":
    case "account_created":
    case "account_updated":
      return { kind: message.type, ids: [message.data.id] };
    case "trade_closed":
      return { kind: message.type, ids: [message.data.signalId] };
    case "account_deleted":
      return { kind: message.type, ids: [message.data.id] };
    case "sync_updated":
      return { kind: message.type, ids: [message.data.accountId] };
    case "tenant_updated":
      return { kind: message.type, ids: [] };
    case "audit_log":
    case "heartbeat":
    case "connected":
      return null;
    default: {
      const never: never = message;
      return never;
    }
  }
}
