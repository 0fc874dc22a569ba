/**
 * Organisations (tenants). Alone in its file, with no import of columns.ts: every tenant-owned
 * table's `tenant_id` (columns.ts tenantRef) references it, so columns.ts imports this file.
 */
import { boolean, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  /** Set by pause-all / panic-stop; cleared when a slave is enabled again. */
  copyPaused: boolean("copy_paused").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
