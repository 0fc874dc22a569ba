import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_VOLUME_SPEC, type SymbolVolumeSpec } from "./types.ts";
import { ceilToStep, closeVolume, floorToStep, normaliseVolume, remainingVolume, type VolumeBounds } from "./volume.ts";

const spec = (over: Partial<SymbolVolumeSpec> = {}): SymbolVolumeSpec => ({ ...DEFAULT_VOLUME_SPEC, ...over });
const reported = (step: string, min: string, max = "100"): SymbolVolumeSpec => ({ volumeStep: step, volumeMin: min, volumeMax: max, tickSize: "0.00001", tickValue: "1", isDefault: false });
/** Settings bounds of COPY_SETTINGS_DEFAULTS and no risk limit. */
const DEFAULTS: VolumeBounds = { minVolume: null, maxVolume: null, tooSmall: "use_min", maxLotSize: null };
const bounds = (over: Partial<VolumeBounds> = {}): VolumeBounds => ({ ...DEFAULTS, ...over });

describe("floorToStep / ceilToStep", () => {
  it.each([
    ["0.1", "0.01", "0.10", "0.10"],
    ["0.29", "0.01", "0.29", "0.29"], // 0.29 * 100 is 28.999… in floating point
    ["0.165", "0.01", "0.16", "0.17"],
    ["0.35", "0.1", "0.3", "0.4"],
    ["2.7", "1", "2", "3"],
    ["0", "0.01", "0.00", "0.00"],
    ["0.30000000", "0.01", "0.30", "0.30"],
    ["1.25", "0.25", "1.25", "1.25"],
    ["1.3", "0.25", "1.25", "1.50"],
    ["0.0166666666666666666666666666666666666666", "0.01", "0.01", "0.02"],
    ["2.99999999999999999999999999", "1", "2", "3"], // no rounding up before the floor
  ])("%s with step %s → floor %s, ceil %s", (v, step, floor, ceil) => {
    expect(floorToStep(v, step)).toBe(floor);
    expect(ceilToStep(v, step)).toBe(ceil);
  });

  it("refuses a step that is not positive", () => {
    expect(() => floorToStep("1", "0")).toThrow(RangeError);
    expect(() => floorToStep("1", "-0.01")).toThrow(RangeError);
    expect(() => ceilToStep("1", "0")).toThrow(RangeError);
  });
});

describe("normaliseVolume with the defaults copies exactly as before copy settings (ported scaleVolume)", () => {
  // master volume × multiplier → the volume today's scaleVolume gave (round down to 0.01, ≥ 0.01).
  it.each([
    ["1.00", "1", "1.00"],
    ["0.10", "1.5", "0.15"],
    ["0.29", "1", "0.29"],
    ["0.33", "0.5", "0.16"], // 0.165 rounds down
    ["0.01", "0.1", "0.01"], // never below the minimum lot
    ["2", "0.333", "0.66"],
    ["0.004", "1", "0.01"],
  ])("%s lots × %s → %s", (v, m, expected) => {
    const sized = new Big(v).times(m).toString();
    expect(normaliseVolume(sized, DEFAULT_VOLUME_SPEC, DEFAULTS)).toEqual({ ok: true, volume: expected, requestedVolume: expected, clamped: false });
  });

  it("keeps 300 lots when the symbol allows it (today had no maximum), and caps at the default maximum of 100 otherwise", () => {
    expect(normaliseVolume("300", spec({ volumeMax: "1000" }), DEFAULTS)).toEqual({ ok: true, volume: "300.00", requestedVolume: "300.00", clamped: false });
    expect(normaliseVolume("300", DEFAULT_VOLUME_SPEC, DEFAULTS)).toEqual({ ok: true, volume: "100.00", requestedVolume: "300.00", clamped: true });
  });
});

describe("normaliseVolume with a risk limit (ported clampVolume / decideOpen lot cases)", () => {
  it.each([
    ["12.50", "10", "10.00", true],
    ["0.50", "0.505", "0.50", false],
    ["0.60", "0.505", "0.50", true],
    ["25", "10", "10.00", true],
    ["50", "100", "50.00", false],
  ])("%s lots with max lot %s → %s (clamped %s)", (v, maxLot, volume, clamped) => {
    const r = normaliseVolume(v, DEFAULT_VOLUME_SPEC, bounds({ maxLotSize: maxLot }));
    expect(r).toEqual({ ok: true, volume, requestedVolume: floorToStep(v, "0.01"), clamped });
  });

  it.each([
    ["0", "Max lot size 0 is below the minimum lot 0.01"],
    ["0.005", "Max lot size 0.005 is below the minimum lot 0.01"],
  ])("max lot %s below the minimum lot rejects with today's text", (maxLot, reason) => {
    expect(normaliseVolume("1.00", DEFAULT_VOLUME_SPEC, bounds({ maxLotSize: maxLot }))).toEqual({ ok: false, code: "max_lot_below_min", reason, volume: "1.00" });
  });

  it("compares the max lot with the symbol's own minimum and step", () => {
    expect(normaliseVolume("1", reported("0.1", "0.1"), bounds({ maxLotSize: "0.15" }))).toEqual({ ok: true, volume: "0.1", requestedVolume: "1.0", clamped: true });
    expect(normaliseVolume("1", reported("0.1", "0.2"), bounds({ maxLotSize: "0.15" }))).toMatchObject({ ok: false, code: "max_lot_below_min", reason: "Max lot size 0.15 is below the minimum lot 0.2" });
  });

  it("lets the risk limit win over the settings minimum", () => {
    expect(normaliseVolume("0.2", DEFAULT_VOLUME_SPEC, bounds({ minVolume: "0.5", maxLotSize: "0.3" }))).toEqual({ ok: true, volume: "0.30", requestedVolume: "0.50", clamped: true });
  });
});

describe("normaliseVolume with settings bounds and reported symbol specs", () => {
  it.each<[string, SymbolVolumeSpec, Partial<VolumeBounds>, ReturnType<typeof normaliseVolume>]>([
    // step 0.1, min 0.1
    ["0.35", reported("0.1", "0.1"), {}, { ok: true, volume: "0.3", requestedVolume: "0.3", clamped: false }],
    ["0.05", reported("0.1", "0.1"), {}, { ok: true, volume: "0.1", requestedVolume: "0.1", clamped: false }],
    ["0.05", reported("0.1", "0.1"), { tooSmall: "skip" }, { ok: false, code: "volume_too_small", reason: "Volume 0.05 is below the minimum 0.1", volume: "0.05" }],
    // step 1 (index CFDs), min 1, max 50
    ["2.7", reported("1", "1", "50"), {}, { ok: true, volume: "2", requestedVolume: "2", clamped: false }],
    ["75", reported("1", "1", "50"), {}, { ok: true, volume: "50", requestedVolume: "75", clamped: true }],
    ["0.4", reported("1", "1", "50"), { tooSmall: "skip" }, { ok: false, code: "volume_too_small", reason: "Volume 0.4 is below the minimum 1", volume: "0.4" }],
    // default spec, skip
    ["0.004", DEFAULT_VOLUME_SPEC, { tooSmall: "skip" }, { ok: false, code: "volume_too_small", reason: "Volume 0.004 is below the minimum 0.01", volume: "0.004" }],
    // settings maximum caps before rounding (not a clamp: the slave asked for it)
    ["3", DEFAULT_VOLUME_SPEC, { maxVolume: "2.5" }, { ok: true, volume: "2.50", requestedVolume: "2.50", clamped: false }],
    // settings minimum: use_min raises, skip refuses
    ["0.2", DEFAULT_VOLUME_SPEC, { minVolume: "0.5" }, { ok: true, volume: "0.50", requestedVolume: "0.50", clamped: false }],
    ["0.2", DEFAULT_VOLUME_SPEC, { minVolume: "0.5", tooSmall: "skip" }, { ok: false, code: "volume_too_small", reason: "Volume 0.2 is below the minimum 0.5", volume: "0.2" }],
    // a settings minimum off the step is raised to the next step (the one upward rounding)
    ["0.2", reported("0.1", "0.1"), { minVolume: "0.25" }, { ok: true, volume: "0.3", requestedVolume: "0.3", clamped: false }],
    // a settings minimum below the symbol's: the symbol's applies
    ["0.05", reported("0.1", "0.1"), { minVolume: "0.02" }, { ok: true, volume: "0.1", requestedVolume: "0.1", clamped: false }],
    // long ratio results are shown truncated to 8 decimals
    ["0.0012345678912345", DEFAULT_VOLUME_SPEC, { tooSmall: "skip" }, { ok: false, code: "volume_too_small", reason: "Volume 0.00123456 is below the minimum 0.01", volume: "0.00123456" }],
  ])("%s lots on %o with %o", (v, s, b, expected) => {
    expect(normaliseVolume(v, s, bounds(b))).toEqual(expected);
  });

  // Property: whatever the sized volume, symbol and bounds, an accepted volume is on the step,
  // within the symbol's minimum and maximum and the floored max lot, and above the sized volume
  // only when it is exactly the (rounded-up) minimum.
  it("answers a volume on the step, within every bound, rounded up only to a minimum (property)", () => {
    const steps = [
      ["0.01", "0.01"],
      ["0.1", "0.1"],
      ["1", "1"],
      ["0.01", "0.05"],
      ["0.25", "0.5"],
    ] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.constantFrom(...steps),
        fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }),
        fc.constantFrom("skip" as const, "use_min" as const),
        (sizedMicro, [step, min], maxLotCents, tooSmall) => {
          const sized = new Big(sizedMicro).div(1_000_000).toString();
          const maxLotSize = maxLotCents === null ? null : new Big(maxLotCents).div(100).toString();
          const s = reported(step, min, "50");
          const r = normaliseVolume(sized, s, bounds({ tooSmall, maxLotSize }));
          if (!r.ok) {
            if (r.code === "max_lot_below_min") expect(new Big(floorToStep(maxLotSize ?? "0", step)).lt(min)).toBe(true);
            else expect(tooSmall === "skip" && new Big(floorToStep(sized, step)).lt(min)).toBe(true);
            return;
          }
          const v = new Big(r.volume);
          expect(v.mod(step).eq(0)).toBe(true);
          expect(v.gte(min) && v.lte("50")).toBe(true);
          if (maxLotSize !== null) expect(v.lte(maxLotSize)).toBe(true);
          if (v.gt(sized)) expect(r.volume).toBe(ceilToStep(min, step));
          expect(r.clamped).toBe(new Big(r.requestedVolume).gt(r.volume));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never rounds up except to a minimum", () => {
    expect(normaliseVolume("0.199999", reported("0.1", "0.1"), DEFAULTS)).toMatchObject({ volume: "0.1" });
    expect(normaliseVolume("0.019", DEFAULT_VOLUME_SPEC, DEFAULTS)).toMatchObject({ volume: "0.01" });
  });
});

describe("closeVolume", () => {
  const d = DEFAULT_VOLUME_SPEC;
  it.each([
    // held, master open, master closed → slave closes, full
    ["0.30", "0.30", "0.10", "0.10", false], // today's floats gave 0.09
    ["0.58", "0.58", "0.20", "0.20", false], // today's floats gave 0.19
    ["0.60", "0.30", "0.10", "0.20", false], // k× holdings close k×
    ["0.90", "0.30", "0.10", "0.30", false],
    ["0.05", "0.30", "0.10", "0.01", false], // floor(0.01666…)
    ["1.50", "1.00", "0.50", "0.75", false], // ported slaveCloseVolume cases
    ["0.15", "1.00", "0.50", "0.07", false],
    ["0.01", "1.00", "0.50", "0.01", true], // never below the minimum; that is the whole copy
    ["0.33", "1.00", "1.00", "0.33", true], // full close
    ["0.33", "1.00", null, "0.33", true],
    ["0.33", "1.00", "0", "0.33", true],
    ["0.33", "1.00", "3", "0.33", true],
    ["0.30000000", "0.30", null, "0.30", true], // a stored numeric closes as held
    ["0.02", "0.30", "0.20", "0.01", false], // 0.0133… → 0.01, the other 0.01 stays open
  ])("holding %s of %s, master closes %s → %s (full %s)", (held, open, closed, volume, full) => {
    expect(closeVolume(held, open, closed, d)).toEqual({ volume, full });
  });

  it("closes everything when the rest could not stay open (below the symbol minimum)", () => {
    // 0.15 × 0.5 = 0.075 → 0.0 on step 0.1 → min 0.1 → rest 0.05 < 0.1: close all.
    expect(closeVolume("0.15", "1", "0.5", reported("0.1", "0.1"))).toEqual({ volume: "0.15", full: true });
    expect(closeVolume("0.3", "0.3", "0.1", reported("0.1", "0.1"))).toEqual({ volume: "0.1", full: false });
    expect(closeVolume("3", "1", "0.5", reported("1", "1"))).toEqual({ volume: "1", full: false });
    expect(closeVolume("2", "1", "0.5", reported("1", "1"))).toEqual({ volume: "1", full: false });
    expect(closeVolume("1", "1", "0.5", reported("1", "1"))).toEqual({ volume: "1", full: true });
  });

  it("follows a partial-close chain exactly: 0.30 → close 0.10 → close 0.10 → close the rest", () => {
    let master = "0.30";
    let same = "0.30";
    let double = "0.60";
    const closes: [string, string][] = [];
    for (const closed of ["0.10", "0.10", null] as const) {
      const a = closeVolume(same, master, closed, DEFAULT_VOLUME_SPEC);
      const b = closeVolume(double, master, closed, DEFAULT_VOLUME_SPEC);
      closes.push([a.volume, b.volume]);
      same = new Big(same).minus(a.volume).toFixed(2);
      double = new Big(double).minus(b.volume).toFixed(2);
      master = remainingVolume(master, closed, closed === null);
    }
    expect(closes).toEqual([
      ["0.10", "0.20"],
      ["0.10", "0.20"],
      ["0.10", "0.20"],
    ]);
    expect([same, double, master]).toEqual(["0.00", "0.00", "0"]);
  });

  it("follows 0.58 → close 0.20 → close 0.20 → close 0.18 on a slave holding 0.58", () => {
    let master = "0.58";
    let held = "0.58";
    const closes: string[] = [];
    for (const closed of ["0.20", "0.20", "0.18"]) {
      const c = closeVolume(held, master, closed, DEFAULT_VOLUME_SPEC);
      closes.push(c.volume);
      held = new Big(held).minus(c.volume).toFixed(2);
      master = remainingVolume(master, closed, new Big(closed).gte(master));
    }
    expect(closes).toEqual(["0.20", "0.20", "0.18"]);
    expect(held).toBe("0.00");
  });

  it("refuses a non-positive step", () => {
    expect(() => closeVolume("1", "1", "0.5", spec({ volumeStep: "0" }))).toThrow(RangeError);
  });

  // Property: for any master position and partial close, a slave holding k× (k = 1…5) the master
  // volume closes exactly k× what the master closed; no slave ever closes more than it holds, and
  // a partial result is a multiple of the step.
  it("closes exactly k× for k× holdings, never more than held, always on the step (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000 }), fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: 1, max: 5 }), (openCents, closedCents, k) => {
        fc.pre(closedCents < openCents);
        const open = new Big(openCents).div(100).toFixed(2);
        const closed = new Big(closedCents).div(100).toFixed(2);
        const held = new Big(open).times(k).toFixed(2);
        const r = closeVolume(held, open, closed, DEFAULT_VOLUME_SPEC);
        expect(new Big(r.volume).lte(held)).toBe(true);
        expect(new Big(r.volume).mod("0.01").eq(0)).toBe(true);
        const rest = new Big(held).minus(new Big(closed).times(k));
        if (rest.gte("0.01")) expect(r).toEqual({ volume: new Big(closed).times(k).toFixed(2), full: false });
        else expect(r).toEqual({ volume: held, full: true });
      }),
      { numRuns: 500 },
    );
  });

  it("never closes more than held or off the step for any holding (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 2, max: 10_000 }), fc.integer({ min: 1, max: 9_999 }), (heldCents, openCents, closedCents) => {
        fc.pre(closedCents < openCents);
        const held = new Big(heldCents).div(100).toFixed(2);
        const r = closeVolume(held, new Big(openCents).div(100).toFixed(2), new Big(closedCents).div(100).toFixed(2), DEFAULT_VOLUME_SPEC);
        expect(new Big(r.volume).lte(held)).toBe(true);
        expect(new Big(r.volume).gte("0.01")).toBe(true);
        expect(new Big(r.volume).mod("0.01").eq(0)).toBe(true);
        // Rounded down once: never more than the exact share unless raised to the minimum or closing all.
        const exact = new Big(held).times(closedCents).div(openCents);
        if (!r.full && new Big(r.volume).gt("0.01")) expect(new Big(r.volume).lte(exact)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("remainingVolume (ported)", () => {
  it("keeps the master's remaining volume, never negative", () => {
    expect(remainingVolume("1.00", "0.40", false)).toBe("0.6");
    expect(remainingVolume("1.00", "0.40", true)).toBe("0");
    expect(remainingVolume("1.00", null, false)).toBe("0");
    expect(remainingVolume("0.30", "0.50", false)).toBe("0");
  });
});
