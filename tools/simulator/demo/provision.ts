/**
 * Sets up the demo organisation through the public dashboard API only: register (or log in),
 * accounts, symbol mappings, risk limits and fresh bridge API keys. Safe to repeat on the same
 * database: what exists is reused or brought back to the plan.
 */
import type { Account, ApiKey, CreateApiKeyResponse, LoginResponse, RiskLimit, SymbolMap } from "#contract";
import { ApiError, type DashboardApi } from "./dashboard-api.ts";
import { DEMO_KEY_PREFIX, type DemoPlan, type DemoRisk } from "./demo-plan.ts";

export interface ProvisionedTerminal {
  account: Account;
  apiKey: string;
  secret: string;
}

export interface Provisioned {
  master: ProvisionedTerminal;
  slaves: ProvisionedTerminal[];
}

type Say = (line: string) => void;

/** Registers or logs in and leaves the session token on `api`. */
export async function signIn(api: DashboardApi, plan: DemoPlan, say: Say): Promise<void> {
  const { email, password, firstName, lastName } = plan.user;
  try {
    await api.post("/api/auth/register", { email, password, confirmPassword: password, firstName, lastName, tenantName: plan.tenant.name, tenantSlug: plan.tenant.slug });
    say(`registered organisation "${plan.tenant.name}" for ${email}`);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
    say(`${email} already registered: logging in`);
  }
  try {
    api.token = (await api.post<LoginResponse>("/api/auth/login", { email, password })).token;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      throw new Error(`cannot log in as ${email}: the email exists with another password (or the organisation ID "${plan.tenant.slug}" belongs to someone else). Pass --email/--password or use another --data-dir.`);
    }
    throw err;
  }
}

/** Creates or reuses every account, mapping, risk limit and a new API key per terminal. */
export async function provision(api: DashboardApi, plan: DemoPlan, say: Say): Promise<Provisioned> {
  const existing = await api.get<Account[]>("/api/accounts");
  let masterAccount = existing.find((a) => a.role === "MASTER");
  if (!masterAccount) {
    masterAccount = await api.post<Account>("/api/accounts", { ...pick(plan.master), platform: "MT5", role: "MASTER", status: "active" });
    say(`created master account ${masterAccount.accountNumber}`);
  }
  const slaveAccounts: Account[] = [];
  for (const s of plan.slaves) {
    let account = existing.find((a) => a.role === "SLAVE" && a.accountNumber === s.accountNumber);
    if (!account) {
      account = await api.post<Account>("/api/accounts", { ...pick(s), platform: "MT4", role: "SLAVE", status: "active" });
      say(`created slave account ${account.accountNumber} (${s.alias})`);
    } else if (account.status !== "active") {
      // A demo re-run after PANIC STOP / pause: enabling the slave resumes copying.
      account = await api.put<Account>(`/api/accounts/${account.id}`, { status: "active" });
      say(`re-enabled slave account ${account.accountNumber}`);
    }
    slaveAccounts.push(account);
  }

  await syncMappings(api, plan, slaveAccounts, say);
  await syncRiskLimits(api, plan, slaveAccounts, say);

  await deleteOldDemoKeys(api, say);
  const stamp = new Date().toISOString().slice(0, 16).replace("T", " ");
  const key = async (account: Account, scope: "MASTER" | "SLAVE"): Promise<ProvisionedTerminal> => {
    const created = await api.post<CreateApiKeyResponse>("/api/bridge/api-keys", { name: `${DEMO_KEY_PREFIX} ${account.accountNumber} ${stamp}`, scope, accountId: account.id });
    return { account, apiKey: created.apiKey, secret: created.secret };
  };
  const master = await key(masterAccount, "MASTER");
  const slaves: ProvisionedTerminal[] = [];
  for (const a of slaveAccounts) slaves.push(await key(a, "SLAVE"));
  say(`created ${1 + slaves.length} bridge API keys (1 MASTER, ${slaves.length} SLAVE bound to their accounts)`);
  return { master, slaves };
}

const pick = (a: { accountNumber: string; alias: string; broker: string }) => ({ accountNumber: a.accountNumber, alias: a.alias, broker: a.broker });

async function syncMappings(api: DashboardApi, plan: DemoPlan, slaves: Account[], say: Say): Promise<void> {
  const maps = await api.get<SymbolMap[]>("/api/symbol-maps");
  let changed = 0;
  for (const [i, s] of plan.slaves.entries()) {
    const accountId = slaves[i]!.id;
    for (const m of s.mappings) {
      let map = maps.find((x) => x.slaveAccountId === accountId && x.masterSymbol === m.masterSymbol);
      if (!map) {
        map = await api.post<SymbolMap>("/api/symbol-maps", { masterSymbol: m.masterSymbol, slaveSymbol: m.slaveSymbol, slaveAccountId: accountId, lotMultiplier: m.lotMultiplier });
        changed++;
      }
      if (map.slaveSymbol !== m.slaveSymbol || Number(map.lotMultiplier) !== m.lotMultiplier || map.enabled !== m.enabled) {
        await api.put(`/api/symbol-maps/${map.id}`, { slaveSymbol: m.slaveSymbol, lotMultiplier: m.lotMultiplier, enabled: m.enabled });
        changed++;
      }
    }
  }
  if (changed) say(`symbol mappings: ${changed} created or updated`);
}

async function syncRiskLimits(api: DashboardApi, plan: DemoPlan, slaves: Account[], say: Say): Promise<void> {
  const limits = await api.get<RiskLimit[]>("/api/risk-limits");
  let changed = 0;
  for (const [i, s] of plan.slaves.entries()) {
    const accountId = slaves[i]!.id;
    const current = limits.find((l) => l.accountId === accountId);
    if (current && sameRisk(current, s.risk)) continue;
    const body = { accountId, scope: "account", targetId: accountId, ...s.risk };
    try {
      await api.post("/api/risk-limits", body);
    } catch (err) {
      // Should the server refuse a second limit for the account instead of replacing it.
      if (!(current && err instanceof ApiError && err.status === 409)) throw err;
      await api.put(`/api/risk-limits/${current.id}`, body);
    }
    changed++;
  }
  if (changed) say(`risk limits: ${changed} saved`);
}

function sameRisk(l: RiskLimit, r: DemoRisk): boolean {
  return (
    Number(l.maxDrawdownPct) === r.maxDrawdownPct && Number(l.maxLotSize) === r.maxLotSize && l.maxPositions === r.maxPositions &&
    l.maxSpreadPts === r.maxSpreadPts && l.maxDeviationPts === r.maxDeviationPts && l.enabled === r.enabled
  );
}

/** Keys from earlier demo runs are useless (their secrets were only shown once): remove them. */
async function deleteOldDemoKeys(api: DashboardApi, say: Say): Promise<void> {
  const keys = await api.get<ApiKey[]>("/api/bridge/api-keys");
  const old = keys.filter((k) => k.name.startsWith(DEMO_KEY_PREFIX));
  for (const k of old) await api.delete(`/api/bridge/api-keys/${k.id}`);
  if (old.length) say(`deleted ${old.length} API key(s) of earlier demo runs`);
}
