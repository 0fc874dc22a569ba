/** Whether the tenant's copying is paused (pause-all / PANIC STOP until Resume copying). */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { tenants } from "../../db/schema.ts";

export async function findTenantPause(db: Db, tenantId: string): Promise<boolean> {
  const [row] = await db.select({ copyPaused: tenants.copyPaused }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.copyPaused ?? false;
}
