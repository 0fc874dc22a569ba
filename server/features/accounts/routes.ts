/** /api/accounts routes — spec §7. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createAccountRequestSchema, idParamsSchema, listAccountsQuerySchema, updateAccountRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { toAccount } from "./mappers.ts";
import { findAccount, findMaster, listAccounts } from "./queries.ts";
import { createAccount, deleteAccount, updateAccount } from "./service.ts";
import { findSnapshot } from "./snapshots.ts";
import { listSymbolSpecs } from "./symbol-specs.ts";

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Live accounts; `?includeDeleted=true` adds the deleted ones (with deletedAt) so history screens
  // can still name a deleted slave.
  api.get("/accounts", { schema: { querystring: listAccountsQuerySchema } }, async (request) =>
    (await listAccounts(ctx.db, tenantIdOf(request), undefined, { includeDeleted: request.query.includeDeleted === "true" })).map(toAccount),
  );

  api.get("/accounts/master", async (request) => {
    const row = await findMaster(ctx.db, tenantIdOf(request));
    if (!row) throw notFound("Master account");
    return toAccount(row);
  });

  api.get("/accounts/slaves", async (request) =>
    (await listAccounts(ctx.db, tenantIdOf(request), "SLAVE")).map(toAccount),
  );

  api.get("/accounts/:id", { schema: { params: idParamsSchema } }, async (request) => {
    const row = await findAccount(ctx.db, tenantIdOf(request), request.params.id);
    if (!row) throw notFound("Account");
    return toAccount(row);
  });

  // What the account's EA reported (docs/bridge-protocol.md §6.4, §6.5); another tenant's id → 404.
  api.get("/accounts/:id/symbol-specs", { schema: { params: idParamsSchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    const row = await findAccount(ctx.db, tenantId, request.params.id);
    if (!row) throw notFound("Account");
    return listSymbolSpecs(ctx.db, tenantId, row.id);
  });

  api.get("/accounts/:id/snapshot", { schema: { params: idParamsSchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    const row = await findAccount(ctx.db, tenantId, request.params.id);
    if (!row) throw notFound("Account");
    return findSnapshot(ctx.db, tenantId, row.id);
  });

  api.post("/accounts", { schema: { body: createAccountRequestSchema } }, async (request, reply) => {
    const account = await createAccount(ctx, tenantIdOf(request), request.body);
    return reply.status(201).send(account);
  });

  api.put("/accounts/:id", { schema: { params: idParamsSchema, body: updateAccountRequestSchema } }, async (request) =>
    updateAccount(ctx, tenantIdOf(request), request.params.id, request.body),
  );

  api.delete("/accounts/:id", { schema: { params: idParamsSchema } }, async (request) =>
    deleteAccount(ctx, tenantIdOf(request), request.params.id),
  );
}
