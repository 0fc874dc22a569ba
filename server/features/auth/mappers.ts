/** Row → contract shapes for users and tenants (never expose the rows themselves). */
import { roleSchema, type Tenant, type User } from "#contract";
import type { tenants, users } from "../../db/schema.ts";

export function toUser(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    // The column is text; an unknown value (never written by the code) reads as the least privilege.
    role: roleSchema.catch("viewer").parse(row.role),
    twoFactorEnabled: row.totpEnabledAt !== null,
  };
}

export function toTenant(row: typeof tenants.$inferSelect): Tenant {
  return { id: row.id, name: row.name, slug: row.slug, copyPaused: row.copyPaused };
}
