/**
 * The signed bridge endpoints (spec §7 'Bridge endpoints documented', docs/bridge-protocol.md
 * §4–§6), listed on the Endpoints tab.
 */
import type { ApiKeyScope } from "#contract";

export interface BridgeEndpoint {
  method: "POST" | "GET";
  path: string;
  scope: Extract<ApiKeyScope, "MASTER" | "SLAVE">;
  description: string;
}

export const BRIDGE_ENDPOINTS: readonly BridgeEndpoint[] = [
  { method: "POST", path: "/v1/master/heartbeat", scope: "MASTER", description: "Master terminal status: login, server, balance, equity and currency (every 5–10 s)." },
  { method: "POST", path: "/v1/master/signal/open", scope: "MASTER", description: "A position opened on the master; queues an OPEN order for every eligible slave." },
  { method: "POST", path: "/v1/master/signal/modify", scope: "MASTER", description: "New SL/TP of a master position, forwarded to every slave holding a copy." },
  { method: "POST", path: "/v1/master/signal/close", scope: "MASTER", description: "A full or partial close, applied in proportion on every slave holding a copy." },
  { method: "POST", path: "/v1/master/signal/pending/open", scope: "MASTER", description: "A pending order (LIMIT, STOP, STOP_LIMIT) placed on the master." },
  { method: "POST", path: "/v1/master/signal/pending/modify", scope: "MASTER", description: "New price, SL or TP of a master pending order." },
  { method: "POST", path: "/v1/master/signal/pending/cancel", scope: "MASTER", description: "A master pending order deleted; slaves delete their copies." },
  { method: "POST", path: "/v1/slave/heartbeat", scope: "SLAVE", description: "Slave terminal status; answers with the risk limits and EA profile to enforce." },
  { method: "POST", path: "/v1/slave/orders/poll", scope: "SLAVE", description: "Long-poll (up to 25 s) for the orders the copy engine prepared for this slave." },
  { method: "POST", path: "/v1/slave/execution/report", scope: "SLAVE", description: "Outcome of one order: fill price, ticket, volume, errors; feeds latency and slippage." },
  { method: "GET", path: "/v1/slave/stream", scope: "SLAVE", description: "WebSocket push of the same orders as they are created (signed upgrade request)." },
];
