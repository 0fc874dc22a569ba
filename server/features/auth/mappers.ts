/** Row → contract shapes for users and tenants (never expose the rows themselves). */
import type { Tenant, User } from "#contract";
import type { tenants, users } from "../../db/schema.ts";

export function toUser(row: typeof users.$inferSelect): User {
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName };
}

export function toTenant(row: typeof tenants.$inferSelect): Tenant {
  return { id: row.id, name: row.name, slug: row.slug, copyPaused: row.copyPaused };
}
