/**
 * A tenant's data as its read APIs show it — accounts, mappings, risk limits, copy settings, alert
 * configs, API keys, signals, executions and the newest audit entry — to prove that a refused (4xx)
 * request changed nothing.
 */
import { isDeepStrictEqual } from "node:util";

export type TenantSnapshot = Record<string, unknown>;

const READS: Record<string, string> = {
  accounts: "/api/accounts",
  symbolMaps: "/api/symbol-maps",
  riskLimits: "/api/risk-limits",
  copySettings: "/api/copy-settings",
  alertConfigs: "/api/alerts/configs",
  apiKeys: "/api/bridge/api-keys",
  signals: "/api/signals?limit=5000",
  executions: "/api/executions?limit=10000",
  audit: "/api/audit-logs?limit=5",
};

/** Fields that change without a write of tenant data (the time a key was last used to sign). */
const VOLATILE = new Set(["lastUsedAt"]);

function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalise);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!VOLATILE.has(k)) out[k] = normalise(x);
    return out;
  }
  return v;
}

/** Reads the tenant's data through the dashboard API with `token`. */
export async function takeSnapshot(baseUrl: string, token: string): Promise<TenantSnapshot> {
  const entries = await Promise.all(
    Object.entries(READS).map(async ([name, path]) => {
      const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`snapshot ${path}: ${res.status} ${text.slice(0, 200)}`);
      const body = JSON.parse(text) as unknown;
      return [name, normalise(name === "audit" && Array.isArray(body) ? { newest: (body[0] as { id?: unknown } | undefined)?.id ?? null, count: body.length } : body)] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Names of the parts (but `ignore`) that differ between two snapshots, with a short hint; [] when equal. */
export function snapshotDiff(before: TenantSnapshot, after: TenantSnapshot, ignore: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const name of Object.keys(READS)) {
    if (ignore.includes(name)) continue;
    if (!isDeepStrictEqual(before[name], after[name])) {
      const b = JSON.stringify(before[name]);
      const a = JSON.stringify(after[name]);
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      out.push(`${name} changed near …${a.slice(Math.max(0, i - 80), i + 120)}`);
    }
  }
  return out;
}
