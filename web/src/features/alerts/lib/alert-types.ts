/**
 * Alert types and their form fields — spec §5 Alert form (threshold only for slippage_high,
 * latency_high and daily_dd, with steps, placeholders and units), §9 types and channels. Beyond
 * the spec: optional seconds for slave_disconnect and missed_trade.
 */
import {
  type AlertChannel,
  type AlertType,
  DEFAULT_DISCONNECT_SECONDS,
  DEFAULT_MISSED_TRADE_SECONDS,
  THRESHOLD_FIELD_BY_TYPE,
  alertChannelSchema,
  alertTypeSchema,
  DEFAULT_ALERT_THRESHOLDS,
} from "#contract";

/** §9 alert types in display order. */
export const ALERT_TYPES: readonly AlertType[] = alertTypeSchema.options;
/** §9 channels in display order. */
export const ALERT_CHANNELS: readonly AlertChannel[] = alertChannelSchema.options;

export const ALERT_TYPE_LABELS: Record<AlertType, string> = {
  copy_failure: "Copy Failure",
  slave_disconnect: "Slave Disconnect",
  missed_trade: "Missed Trade",
  slippage_high: "High Slippage",
  daily_dd: "Daily Drawdown",
  latency_high: "High Latency",
};

export const ALERT_CHANNEL_LABELS: Record<AlertChannel, string> = {
  telegram: "Telegram",
  discord: "Discord",
  email: "Email",
};

type ThresholdType = keyof typeof THRESHOLD_FIELD_BY_TYPE;

/** How one numeric alert field is entered. */
export interface NumberFieldSpec {
  /** Key in AlertThresholds. */
  field: "slippageThreshold" | "latencyThreshold" | "drawdownThreshold" | "disconnectSeconds" | "missedTradeSeconds";
  label: string;
  unit: string;
  placeholder: string;
  /** What the server uses when the field is left blank (the §5 placeholder value). */
  defaultValue: number;
  step: number;
  integer: boolean;
  min: number;
  max?: number;
  testId: string;
}

/** §5 threshold fields: decimal 0.1 steps for points and %, whole milliseconds for latency. */
export const THRESHOLD_SPECS: Record<ThresholdType, NumberFieldSpec> = {
  slippage_high: { field: THRESHOLD_FIELD_BY_TYPE.slippage_high, label: "Slippage Threshold", unit: "points", placeholder: "2.0", defaultValue: DEFAULT_ALERT_THRESHOLDS.slippageThreshold, step: 0.1, integer: false, min: 0, testId: "input-alert-threshold" },
  latency_high: { field: THRESHOLD_FIELD_BY_TYPE.latency_high, label: "Latency Threshold", unit: "ms", placeholder: "500", defaultValue: DEFAULT_ALERT_THRESHOLDS.latencyThreshold, step: 1, integer: true, min: 0, testId: "input-alert-threshold" },
  daily_dd: { field: THRESHOLD_FIELD_BY_TYPE.daily_dd, label: "Drawdown Threshold", unit: "%", placeholder: "5.0", defaultValue: DEFAULT_ALERT_THRESHOLDS.drawdownThreshold, step: 0.1, integer: false, min: 0, max: 100, testId: "input-alert-threshold" },
};

/** Beyond §5: how long a slave may be silent, or a signal uncopied, before the alert fires. */
export const SECONDS_SPECS: Partial<Record<AlertType, NumberFieldSpec>> = {
  slave_disconnect: { field: "disconnectSeconds", label: "Disconnected For", unit: "seconds", placeholder: String(DEFAULT_DISCONNECT_SECONDS), defaultValue: DEFAULT_DISCONNECT_SECONDS, step: 1, integer: true, min: 5, max: 86400, testId: "input-disconnect-seconds" },
  missed_trade: { field: "missedTradeSeconds", label: "Not Copied Within", unit: "seconds", placeholder: String(DEFAULT_MISSED_TRADE_SECONDS), defaultValue: DEFAULT_MISSED_TRADE_SECONDS, step: 1, integer: true, min: 1, max: 86400, testId: "input-missed-trade-seconds" },
};

/** The number field the form shows for `type` (threshold or seconds), or null. */
export function numberFieldFor(type: AlertType | ""): NumberFieldSpec | null {
  if (type === "") return null;
  if (type in THRESHOLD_SPECS) return THRESHOLD_SPECS[type as ThresholdType];
  return SECONDS_SPECS[type] ?? null;
}

/** Whether `value` is one of the §9 alert types. */
export function isAlertType(value: string): value is AlertType {
  return (ALERT_TYPES as readonly string[]).includes(value);
}
