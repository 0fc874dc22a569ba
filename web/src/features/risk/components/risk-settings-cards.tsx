import { Controller, type Control, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import type { RiskFormOutput, RiskFormValues } from "../api/risk-form";
import { RiskCard, RiskField } from "./risk-fields";

export interface RiskSettingsCardsProps {
  accountId: string;
  register: UseFormRegister<RiskFormValues>;
  control: Control<RiskFormValues, unknown, RiskFormOutput>;
  errors: FieldErrors<RiskFormValues>;
  /** §4: every input is disabled while the tab's Enabled switch is off. */
  disabled: boolean;
}

/**
 * §2 /risk tab cards: Execution Policy, Risk Guards, Filters & Trading Hours, with the §5 steps
 * (loss stop 0.1; minimum equity and lot 0.01; whole numbers elsewhere).
 */
export function RiskSettingsCards({ accountId, register, control, errors, disabled }: RiskSettingsCardsProps) {
  const field = { accountId, register, errors, disabled };
  const slipId = `slipToMarket-${accountId}`;
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <RiskCard title="Execution Policy" description="How the EA places copied orders">
        <RiskField {...field} name="maxDeviationPts" label="Max Deviation (Points)" type="number" step={1} min={0} inputMode="numeric" testId="input-max-deviation" />
        <RiskField {...field} name="maxSpreadPts" label="Max Spread (Points)" type="number" step={1} min={0} inputMode="numeric" testId="input-max-spread" />
        <RiskField {...field} name="retryMax" label="Retry Attempts" type="number" step={1} min={0} inputMode="numeric" testId="input-retry-attempts" />
        <RiskField {...field} name="retryBackoffMs" label="Retry Backoff (ms)" type="number" step={1} min={0} inputMode="numeric" testId="input-retry-backoff" />
        <div className="flex items-center gap-2 pt-1">
          <Controller
            control={control}
            name="slipToMarket"
            render={({ field: checkbox }) => (
              <Checkbox
                id={slipId}
                ref={checkbox.ref}
                checked={checkbox.value}
                onCheckedChange={(checked) => checkbox.onChange(checked === true)}
                onBlur={checkbox.onBlur}
                disabled={disabled}
                data-testid="checkbox-slip-to-market"
              />
            )}
          />
          <Label htmlFor={slipId}>Slip to Market</Label>
        </div>
      </RiskCard>
      <RiskCard title="Risk Guards" description="Limits that block new copies">
        <RiskField {...field} name="dailyLossStopPercent" label="Daily Loss Stop (%)" type="number" step={0.1} min={0} inputMode="decimal" testId="input-daily-loss-stop" />
        <RiskField {...field} name="equityMin" label="Minimum Equity" type="number" step={0.01} min={0} inputMode="decimal" testId="input-min-equity" />
        <RiskField {...field} name="maxLotSize" label="Max Lot Size" type="number" step={0.01} min={0} inputMode="decimal" testId="input-max-lot-size" />
        <RiskField {...field} name="maxPositions" label="Max Positions" type="number" step={1} min={0} inputMode="numeric" testId="input-max-positions" />
      </RiskCard>
      <RiskCard title="Filters & Trading Hours" description="Which symbols and when the EA may trade">
        <RiskField
          {...field}
          name="symbolWhitelist"
          label="Symbol Whitelist"
          hint="Comma-separated symbols"
          placeholder="e.g., EURUSD, GBPUSD"
          testId="input-symbol-whitelist"
        />
        <RiskField
          {...field}
          name="symbolBlacklist"
          label="Symbol Blacklist"
          hint="Comma-separated"
          placeholder="e.g., XAUUSD, BTCUSD"
          testId="input-symbol-blacklist"
        />
        <RiskField {...field} name="tradingHours" label="Trading Hours" placeholder="Mon-Fri:00:00-23:59" testId="input-trading-hours" />
      </RiskCard>
    </div>
  );
}
