/**
 * Query plans in tests: EXPLAIN ANALYZE (JSON) of a raw statement in a transaction rolled back, on
 * PGlite or PostgreSQL, flattened to its nodes; and a one-line description of a plan for assertion
 * messages. Used by the plan tests of the hot path (report-plans-postgres, claim-plans) and the
 * list pages (plans-postgres).
 */
import type { Database } from "../db/client.ts";

/** One node of an EXPLAIN (FORMAT JSON) plan; the ANALYZE fields when it ran with ANALYZE. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** The plan's nodes, depth first from the root. */
export const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

/** `Node Type relation index (rows×loops) > …`, for assertion messages. */
export const describePlan = (nodes: PlanNode[]): string =>
  nodes.map((n) => `${n["Node Type"]}${n["Relation Name"] ? ` ${n["Relation Name"]}` : ""}${n["Index Name"] ? ` ${n["Index Name"]}` : ""} (${n["Actual Rows"]}×${n["Actual Loops"]})`).join(" > ");

/** EXPLAIN ANALYZE of `text` with `params` ($1, … in order) in a transaction rolled back (its writes undone); the plan's nodes. */
export async function explainRolledBack(database: Database, text: string, params: unknown[]): Promise<PlanNode[]> {
  type Explained = { "QUERY PLAN": [{ Plan: PlanNode }] | string };
  const planOf = (rows: Explained[]) => {
    const v = rows[0]!["QUERY PLAN"];
    return nodesOf((typeof v === "string" ? (JSON.parse(v) as [{ Plan: PlanNode }]) : v)[0].Plan);
  };
  if (database.driver.kind === "postgres") {
    const client = await database.driver.pool.connect();
    try {
      await client.query("begin");
      return planOf((await client.query<Explained>(`explain (analyze, format json) ${text}`, params)).rows);
    } finally {
      await client.query("rollback");
      client.release();
    }
  }
  const lite = database.driver.client;
  await lite.exec("begin");
  try {
    return planOf((await lite.query<Explained>(`explain (analyze, format json) ${text}`, params)).rows);
  } finally {
    await lite.exec("rollback");
  }
}
