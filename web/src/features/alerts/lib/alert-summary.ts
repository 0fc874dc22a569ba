/**
 * Text of an alert row — spec §2 /alerts (enabled shows as Active), §3 Alert configuration.
 */
import type { AlertChannel, AlertConfig } from "#contract";
import { ALERT_CHANNELS, numberFieldFor } from "./alert-types";

/** §2: an enabled configuration shows as 'Active'. */
export function alertStatusLabel(enabled: boolean): "Active" | "Disabled" {
  return enabled ? "Active" : "Disabled";
}

function withUnit(value: number, unit: string): string {
  return unit === "%" ? `${value}%` : `${value} ${unit}`;
}

/**
 * The rule's number in words: 'Threshold: 2 points', 'After 60 seconds'; an unset number shows
 * the server's default (the §5 placeholder, or the contract's seconds) with '(default)'. Null for
 * types without a number.
 */
export function alertRuleText(config: Pick<AlertConfig, "type" | "thresholds">): string | null {
  const spec = numberFieldFor(config.type);
  if (!spec) return null;
  const value = config.thresholds[spec.field];
  const amount = value === null || value === undefined ? `${withUnit(spec.defaultValue, spec.unit)} (default)` : withUnit(value, spec.unit);
  return spec.field === "disconnectSeconds" || spec.field === "missedTradeSeconds" ? `After ${amount}` : `Threshold: ${amount}`;
}

/** Channels that have settings, in §9 order. */
export function configuredChannels(config: Pick<AlertConfig, "channels">): AlertChannel[] {
  return ALERT_CHANNELS.filter((channel) => config.channels[channel] !== undefined && config.channels[channel] !== null);
}
