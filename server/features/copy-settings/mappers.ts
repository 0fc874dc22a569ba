/** Copy settings row → API shape (contract/copy-settings.ts `CopySettings`), and the audit summary. */
import type { CopySettings, CopySettingsValues } from "#contract";
import type { CopySettingsRow } from "./queries.ts";
import { settingsOf } from "./settings-of.ts";

/**
 * The API shape of one slave's settings: its stored row's values (`saved: true`, `updatedAt` ISO),
 * or `COPY_SETTINGS_DEFAULTS` with `saved: false, updatedAt: null` when it has no row.
 */
export function toCopySettings(slaveAccountId: string, row: CopySettingsRow | null): CopySettings {
  const v = settingsOf(row);
  return {
    slaveAccountId,
    sizing: { mode: v.sizing.mode, fixedVolume: v.sizing.fixedVolume, riskPercent: v.sizing.riskPercent },
    minVolume: v.minVolume,
    maxVolume: v.maxVolume,
    tooSmall: v.tooSmall,
    reverse: v.reverse,
    copyStopLoss: v.copyStopLoss,
    copyTakeProfit: v.copyTakeProfit,
    allowedSides: v.allowedSides,
    magic: { include: [...v.magic.include], exclude: [...v.magic.exclude] },
    skipPendingOrders: v.skipPendingOrders,
    signalLifetimeSeconds: v.signalLifetimeSeconds,
    closePositionsOnStop: v.closePositionsOnStop,
    dailyProfitTargetPct: v.dailyProfitTargetPct,
    autoSync: v.autoSync,
    saved: row !== null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

const onOff = (b: boolean) => (b ? "on" : "off");
const list = (entries: string[]) => (entries.length > 0 ? entries.join(", ") : "none");

function sizingText(s: CopySettingsValues["sizing"]): string {
  switch (s.mode) {
    case "fixed":
      return `fixed ${s.fixedVolume ?? "?"} lots`;
    case "risk_percent":
      return `risk_percent ${s.riskPercent ?? "?"}%`;
    case "multiplier":
    case "balance_ratio":
    case "equity_ratio":
      return s.mode;
  }
}

/**
 * One line naming every setting, for the audit log: "sizing risk_percent 1%, min 0.01 lots,
 * max none, too small use_min, reverse off, …, lifetime 60 s, profit target none, close on stop off".
 */
export function describeCopySettings(v: CopySettingsValues): string {
  return [
    `sizing ${sizingText(v.sizing)}`,
    `min ${v.minVolume === null ? "none" : `${v.minVolume} lots`}`,
    `max ${v.maxVolume === null ? "none" : `${v.maxVolume} lots`}`,
    `too small ${v.tooSmall}`,
    `reverse ${onOff(v.reverse)}`,
    `copy SL ${onOff(v.copyStopLoss)}`,
    `copy TP ${onOff(v.copyTakeProfit)}`,
    `sides ${v.allowedSides}`,
    `magic include ${list(v.magic.include)}`,
    `magic exclude ${list(v.magic.exclude)}`,
    `skip pending ${onOff(v.skipPendingOrders)}`,
    `lifetime ${v.signalLifetimeSeconds} s`,
    `profit target ${v.dailyProfitTargetPct === null ? "none" : `${v.dailyProfitTargetPct}%`}`,
    `close on stop ${onOff(v.closePositionsOnStop)}`,
  ].join(", ");
}
