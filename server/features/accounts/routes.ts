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
  api.get("/accounts", { schema: { description: "Lists the organisation's master and slave accounts (deleted ones with includeDeleted=true).", tags: ["Accounts"], querystring: listAccountsQuerySchema } }, async (request) =>
    (await listAccounts(ctx.db, tenantIdOf(request), undefined, { includeDeleted: request.query.includeDeleted === "true" })).map(toAccount),
  );

  api.get("/accounts/master", { schema: { description: "The organisation's master account, or null when there is none.", tags: ["Accounts"] } }, async (request) => {
    const row = await findMaster(ctx.db, tenantIdOf(request));
    if (!row) throw notFound("Master account");
    return toAccount(row);
  });

  api.get("/accounts/slaves", { schema: { description: "Lists the organisation's live slave accounts.", tags: ["Accounts"] } }, async (request) =>
    (await listAccounts(ctx.db, tenantIdOf(request), "SLAVE")).map(toAccount),
  );

  api.get("/accounts/:id", { schema: { description: "One account of the organisation (404 for another organisation's id).", tags: ["Accounts"], params: idParamsSchema } }, async (request) => {
    const row = await findAccount(ctx.db, tenantIdOf(request), request.params.id);
    if (!row) throw notFound("Account");
    return toAccount(row);
  });

  // What the account's EA reported (docs/bridge-protocol.md §6.4, §6.5); another tenant's id → 404.
  api.get("/accounts/:id/symbol-specs", { schema: { description: "The symbol specifications the account's EA reported (volume step, min, max, contract size).", tags: ["Accounts"], params: idParamsSchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    const row = await findAccount(ctx.db, tenantId, request.params.id);
    if (!row) throw notFound("Account");
    return listSymbolSpecs(ctx.db, tenantId, row.id);
  });

  api.get("/accounts/:id/snapshot", { schema: { description: "The latest positions and orders snapshot the account's EA reported.", tags: ["Accounts"], params: idParamsSchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    const row = await findAccount(ctx.db, tenantId, request.params.id);
    if (!row) throw notFound("Account");
    return findSnapshot(ctx.db, tenantId, row.id);
  });

  api.post("/accounts", { schema: { description: "Adds a master or slave account (one master per organisation).", tags: ["Accounts"], body: createAccountRequestSchema } }, async (request, reply) => {
    const account = await createAccount(ctx, tenantIdOf(request), request.body);
    return reply.status(201).send(account);
  });

  api.put("/accounts/:id", { schema: { description: "Edits an account's alias, broker, status or other fields.", tags: ["Accounts"], params: idParamsSchema, body: updateAccountRequestSchema } }, async (request) =>
    updateAccount(ctx, tenantIdOf(request), request.params.id, request.body),
  );

  api.delete("/accounts/:id", { schema: { description: "Deletes an account (soft delete: its history stays readable).", tags: ["Accounts"], params: idParamsSchema } }, async (request) =>
    deleteAccount(ctx, tenantIdOf(request), request.params.id),
  );
}
