/** Leases of periodic jobs. */
import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.ts";

/** Database-backed job leases so only one instance runs a periodic job at a time. */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  leaseUntil: ts("lease_until").notNull(),
  lastRunAt: ts("last_run_at"),
  runCount: bigint("run_count", { mode: "number" }).notNull().default(0),
});
