/** Column helpers shared by every table. */
import { timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";

/** A timestamptz column, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
/** `tenant_id`, deleted with its tenant. */
export const tenantRef = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" });
