/**
 * GET /ws — the dashboard's realtime socket (spec §4, §7). Authenticated before the upgrade by the
 * session cookie or `?token=` (a browser's Origin must be this server's or allowed); the socket
 * then joins its tenant's channel and only ever receives that tenant's `{type, data}` messages.
 * Answers `heartbeat` with `heartbeat`; dead peers are dropped by a ping every 30 s.
 */
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import { clientMessageSchema } from "#contract";
import type { AppContext } from "../http/context.ts";
import { authenticate } from "../features/auth/guard.ts";
import { assertSocketOrigin } from "../http/security.ts";

const PING_INTERVAL_MS = 30_000;

export function registerRealtimeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    "/ws",
    {
      websocket: true,
      schema: { description: "The dashboard's realtime WebSocket: the organisation's new signals, executions and alerts.", tags: ["Realtime"], hide: true },
      preValidation: async (request) => {
        // Cross-site WebSocket hijacking: a browser page of another origin may not open the feed.
        assertSocketOrigin(request, ctx.config.allowedOrigins);
        request.auth = await authenticate(ctx, request, { allowQueryToken: true });
      },
    },
    (socket: WebSocket, request) => {
      const auth = request.auth;
      if (!auth) {
        socket.close(4401, "unauthorized");
        return;
      }
      const leave = ctx.hub.join(auth.tenantId, socket, auth.via === "session" ? auth.sessionId : null);
      let alive = true;
      const ping = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, PING_INTERVAL_MS);
      socket.on("pong", () => {
        alive = true;
      });
      socket.on("message", (raw: Buffer) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString("utf8"));
        } catch {
          return; // Unparseable client messages are ignored, like the dashboard does (§4).
        }
        if (clientMessageSchema.safeParse(parsed).success) {
          socket.send(JSON.stringify({ type: "heartbeat", data: { ts: Date.now() } }));
        }
      });
      socket.on("close", () => {
        clearInterval(ping);
        leave();
      });
      socket.send(JSON.stringify({ type: "connected", data: { tenantId: auth.tenantId } }));
    },
  );
}
