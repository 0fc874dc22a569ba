/**
 * Tenant scoping, expressed once. Every query on a tenant-owned table filters through `ofTenant`
 * or `ofTenantById`, so a row of another tenant is simply not found (→ 404, never data).
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

interface TenantOwned {
  tenantId: PgColumn;
}
interface TenantOwnedWithId extends TenantOwned {
  id: PgColumn;
}

export function ofTenant(table: TenantOwned, tenantId: string, ...more: (SQL | undefined)[]): SQL {
  return and(eq(table.tenantId, tenantId), ...more) as SQL;
}

export function ofTenantById(table: TenantOwnedWithId, tenantId: string, id: string, ...more: (SQL | undefined)[]): SQL {
  return and(eq(table.tenantId, tenantId), eq(table.id, id), ...more) as SQL;
}
