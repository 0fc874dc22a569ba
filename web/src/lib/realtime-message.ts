import type { ServerMessage } from "#contract";

/** Socket reconnect delay after a close (§9). */
export const RECONNECT_DELAY_MS = 3000;
/** Interval of the client heartbeat while the socket is open. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * §3 Live message: a JSON object with a string `type` and a `data` field. Returns null for
 * anything else (the caller logs and ignores it, §4). Types unknown to the contract are passed
 * through; handlers switch on the types they know.
 */
export function parseServerMessage(raw: unknown): ServerMessage | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  if (!("type" in value) || typeof value.type !== "string") return null;
  const data = "data" in value ? value.data : undefined;
  return { type: value.type, data } as ServerMessage;
}

/**
 * Socket address of §7: /ws on the page's host, wss on https pages, ws otherwise. The session
 * cookie authenticates it; a stored token is also passed as `?token=`.
 */
export function realtimeUrl(location: Pick<Location, "protocol" | "host">, token: string | null): string {
  const protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${protocol}//${location.host}/ws${query}`;
}
