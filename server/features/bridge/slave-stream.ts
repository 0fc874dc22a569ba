/**
 * GET /v1/slave/stream — WebSocket push of orders (docs/bridge-protocol.md §6.6), the secondary
 * channel beside the long-poll. Signed like any GET (empty body); an unbound key names the account
 * with `?accountId=` or `?accountNumber=`. On connect every unreported order is sent, then each new
 * order as its transaction commits: `{type:"orders", orders:[…]}`. Reports still go over HTTP.
 */
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import { z } from "zod";
import type { SlaveOrder } from "#contract";
import { releaseAdmission } from "../../http/admission.ts";
import type { AppContext } from "../../http/context.ts";
import { claimDeliverable } from "../copy-engine/delivery/slave-delivery.ts";
import { apiKeyAuthOf } from "./auth.ts";
import { resolveSlaveAccount } from "./terminal-account.ts";

const querySchema = z.object({ accountId: z.uuid().optional(), accountNumber: z.string().min(1).max(64).optional() });

export function registerSlaveStream(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    "/slave/stream",
    { websocket: true, schema: { description: "WebSocket push of the slave's orders (the secondary delivery channel), signed like a GET.", tags: ["Bridge: slave"], querystring: querySchema }, config: { bridge: { scope: "SLAVE", replay: "cache" } } },
    (socket: WebSocket, request) => {
      const auth = apiKeyAuthOf(request);
      const query = request.query as z.infer<typeof querySchema>;
      const send = (orders: SlaveOrder[]) => {
        if (orders.length === 0 || socket.readyState !== socket.OPEN) return;
        socket.send(JSON.stringify({ type: "orders", orders }));
      };
      let detach: (() => void) | null = null;
      socket.on("close", () => detach?.());
      resolveSlaveAccount(ctx.db, auth, query)
        .then(async (slave) => {
          // Hand-outs pushed here are recorded by OrderDelivery.handOut.
          detach = ctx.delivery.attachStream(slave.id, { send });
          send(await claimDeliverable(ctx, auth.tenantId, slave.id, { redeliver: true, limit: 500 }));
        })
        // The open stream does no work until orders come: its admission slot goes back now (http/admission.ts).
        .finally(() => releaseAdmission(request))
        .catch((err: unknown) => {
          request.log.warn({ err }, "slave stream refused");
          socket.close(4404, err instanceof Error ? err.message.slice(0, 100) : "refused");
        });
    },
  );
}
