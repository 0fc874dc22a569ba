/**
 * The configuration a slave EA enforces locally (docs/bridge-protocol.md §6.1): its risk limit and
 * its EA profile (the risk-screen settings the §3 risk limit payload does not carry).
 */
import type { EaProfile, SlaveConfig } from "#contract";
import { eaProfileSchema } from "#contract";
import type { AccountRow } from "../accounts/mappers.ts";
import type { RiskLimitRow } from "./queries.ts";

/** The stored profile, or null when none was saved (or it no longer parses). */
export function profileOf(account: Pick<AccountRow, "settings">): EaProfile | null {
  if (!account.settings) return null;
  const parsed = eaProfileSchema.safeParse(account.settings);
  return parsed.success ? parsed.data : null;
}

/** `closeOnly` follows the account's close-only protection state (docs/bridge-protocol.md §8.3). */
export function toSlaveConfig(account: Pick<AccountRow, "settings" | "closeOnlyCode">, limit: RiskLimitRow | null): SlaveConfig {
  const on = limit?.enabled === true;
  return {
    riskEnabled: on,
    maxSpreadPts: on ? limit.maxSpreadPts : null,
    maxDeviationPts: on ? limit.maxDeviationPts : null,
    maxLotSize: on ? limit.maxLotSize : null,
    maxPositions: on ? limit.maxPositions : null,
    maxDrawdownPct: on ? limit.maxDrawdownPct : null,
    profile: profileOf(account),
    closeOnly: account.closeOnlyCode != null,
  };
}
