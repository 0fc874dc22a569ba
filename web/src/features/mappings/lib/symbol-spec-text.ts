import type { SymbolSpec } from "#contract";

/** Shown beside a mapping whose slave has not reported the mapped symbol (issue 10). */
export const SPEC_NOT_REPORTED = "Not reported yet";

/** Decimal string without trailing zeros: "100.00" → "100", "0.010" → "0.01". */
function plain(value: string): string {
  return value.includes(".") ? value.replace(/\.?0+$/, "") : value;
}

/**
 * One line describing the slave broker's spec of a mapped symbol: volume min/step/max (lots),
 * digits, contract size and tick value (account currency), e.g.
 * "Min 0.01 · Step 0.01 · Max 100 · Digits 5 · Contract 100000 · Tick value 1";
 * {@link SPEC_NOT_REPORTED} when there is none.
 */
export function symbolSpecText(spec: SymbolSpec | undefined): string {
  if (!spec) return SPEC_NOT_REPORTED;
  return [
    `Min ${plain(spec.volumeMin)}`,
    `Step ${plain(spec.volumeStep)}`,
    `Max ${plain(spec.volumeMax)}`,
    `Digits ${spec.digits}`,
    `Contract ${plain(spec.contractSize)}`,
    `Tick value ${plain(spec.tickValue)}`,
  ].join(" · ");
}
