/**
 * Per-slave copy settings (issue 12, contract/copy-settings.ts): list every slave's settings and
 * replace one slave's, audited. Errors: 404 "Account not found" for an id that is not the
 * tenant's (another tenant's included), 400 on `params.slaveAccountId` for a master account.
 */
import type { CopySettings, CopySettingsValues } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { invalidField, notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { describeCopySettings, toCopySettings } from "./mappers.ts";
import { findAccountForSettings, findCopySettings, listSlaveSettings, upsertCopySettings } from "./queries.ts";
import { settingsOf } from "./settings-of.ts";

/** GET /api/copy-settings: one entry per slave of the tenant, in the slave list's order. */
export async function listCopySettings(ctx: AppContext, tenantId: string): Promise<CopySettings[]> {
  const slaves = await listSlaveSettings(ctx.db, tenantId);
  return slaves.map((s) => toCopySettings(s.slaveAccountId, s.row));
}

/**
 * PUT /api/copy-settings/:slaveAccountId: stores `values` (already validated by the route's
 * contract schema; volumes in lots as decimal strings) as the slave's settings, replacing any
 * before, and writes an audit entry ("Copy settings updated for <alias or number>: …") whose
 * metadata holds `before` (null when the slave copied with the defaults) and `after`.
 */
export async function saveCopySettings(ctx: AppContext, tenantId: string, slaveAccountId: string, values: CopySettingsValues): Promise<CopySettings> {
  return ctx.db.transaction(async (tx) => {
    const account = await findAccountForSettings(tx, tenantId, slaveAccountId);
    if (!account) throw notFound("Account");
    if (account.role !== "SLAVE") throw invalidField("params.slaveAccountId", "Copy settings apply to slave accounts");
    const previous = await findCopySettings(tx, tenantId, account.id);
    const row = await upsertCopySettings(tx, tenantId, account.id, values);
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "copy-settings",
      message: `Copy settings updated for ${account.alias ?? account.accountNumber}: ${describeCopySettings(values)}`,
      accountId: account.id,
      metadata: { before: previous ? settingsOf(previous) : null, after: values },
    });
    return toCopySettings(account.id, row);
  });
}
