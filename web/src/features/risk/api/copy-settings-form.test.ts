import { COPY_SETTINGS_DEFAULTS, COPY_SETTINGS_MESSAGES, type CopySettings, autoSyncSchema, copySettingsRequestSchema } from "#contract";
import { describe, expect, it } from "vitest";
import {
  AUTO_SYNC_HELP,
  AUTO_SYNC_LABELS,
  type CopySettingsFormValues,
  defaultCopySettingsForm,
  errorsFromIssues,
  fieldOfIssuePath,
  formFromSettings,
  parseMagicList,
  toCopySettingsRequest,
  validateCopySettingsForm,
} from "./copy-settings-form";

const SLAVE = "0b6c1d5e-2f44-4d0c-9b53-8f3a2e6c7d10";
const M = COPY_SETTINGS_MESSAGES;

const form = (over: Partial<CopySettingsFormValues> = {}): CopySettingsFormValues => ({ ...defaultCopySettingsForm(), ...over });

describe("defaults", () => {
  it("show the contract defaults: multiplier, no bounds, use the minimum, SL and TP copied, both sides, 60 s", () => {
    expect(defaultCopySettingsForm()).toEqual({
      sizingMode: "multiplier",
      fixedVolume: "",
      riskPercent: "",
      minVolume: "",
      maxVolume: "",
      tooSmall: "use_min",
      reverse: false,
      copyStopLoss: true,
      copyTakeProfit: true,
      allowedSides: "both",
      magicInclude: "",
      magicExclude: "",
      skipPendingOrders: false,
      signalLifetimeSeconds: "60",
      dailyProfitTargetPct: "",
      closePositionsOnStop: false,
      autoSync: "off",
    });
  });

  it("save unchanged as exactly the defaults", () => {
    expect(validateCopySettingsForm(defaultCopySettingsForm())).toEqual({ ok: true, values: COPY_SETTINGS_DEFAULTS });
  });
});

describe("toCopySettingsRequest (form → PUT body)", () => {
  it("sends every field, blanks as null, magic lists split on commas, lifetime as a number", () => {
    const body = toCopySettingsRequest(
      form({
        sizingMode: "risk_percent",
        riskPercent: " 1 ",
        minVolume: "0.05",
        maxVolume: "2.5",
        tooSmall: "skip",
        reverse: true,
        copyStopLoss: false,
        allowedSides: "sell",
        magicInclude: "100-200, 777,, ",
        magicExclude: " 150 ",
        skipPendingOrders: true,
        signalLifetimeSeconds: "30",
        dailyProfitTargetPct: "2",
        closePositionsOnStop: true,
        autoSync: "close_orphans",
      }),
    );
    expect(body).toEqual({
      sizing: { mode: "risk_percent", fixedVolume: null, riskPercent: "1" },
      minVolume: "0.05",
      maxVolume: "2.5",
      tooSmall: "skip",
      reverse: true,
      copyStopLoss: false,
      copyTakeProfit: true,
      allowedSides: "sell",
      magic: { include: ["100-200", "777"], exclude: ["150"] },
      skipPendingOrders: true,
      signalLifetimeSeconds: 30,
      closePositionsOnStop: true,
      dailyProfitTargetPct: "2",
      autoSync: "close_orphans",
    });
    expect(copySettingsRequestSchema.safeParse(body).success).toBe(true);
  });

  it("sends only the volume or percent the sizing mode uses (a leftover in a hidden field is dropped)", () => {
    expect(toCopySettingsRequest(form({ sizingMode: "fixed", fixedVolume: "0.3", riskPercent: "abc" })).sizing).toEqual({ mode: "fixed", fixedVolume: "0.3", riskPercent: null });
    expect(toCopySettingsRequest(form({ sizingMode: "multiplier", fixedVolume: "-1", riskPercent: "500" })).sizing).toEqual({ mode: "multiplier", fixedVolume: null, riskPercent: null });
    expect(validateCopySettingsForm(form({ sizingMode: "equity_ratio", fixedVolume: "x" })).ok).toBe(true);
  });

  it("parses magic lists", () => {
    expect(parseMagicList("")).toEqual([]);
    expect(parseMagicList(" 1 ,2-3 , ,4")).toEqual(["1", "2-3", "4"]);
  });
});

describe("formFromSettings (GET → form) round-trips", () => {
  it("shows saved settings and saves them back unchanged", () => {
    const saved: CopySettings = {
      slaveAccountId: SLAVE,
      sizing: { mode: "fixed", fixedVolume: "0.35", riskPercent: null },
      minVolume: "0.1",
      maxVolume: null,
      tooSmall: "skip",
      reverse: true,
      copyStopLoss: true,
      copyTakeProfit: false,
      allowedSides: "buy",
      magic: { include: ["100-200", "7"], exclude: [] },
      skipPendingOrders: true,
      signalLifetimeSeconds: 15,
      closePositionsOnStop: false,
      dailyProfitTargetPct: "3.5",
      autoSync: "full",
      saved: true,
      updatedAt: "2026-11-23T10:00:00.000Z",
    };
    const f = formFromSettings(saved);
    expect(f).toMatchObject({ fixedVolume: "0.35", minVolume: "0.1", maxVolume: "", magicInclude: "100-200, 7", signalLifetimeSeconds: "15", dailyProfitTargetPct: "3.5", autoSync: "full" });
    const { slaveAccountId: _id, saved: _saved, updatedAt: _at, ...values } = saved;
    expect(validateCopySettingsForm(f)).toEqual({ ok: true, values });
  });
});

describe("validation shows the API's messages on the form's fields", () => {
  it.each<[string, Partial<CopySettingsFormValues>, keyof CopySettingsFormValues, string]>([
    ["min > max", { minVolume: "2", maxVolume: "1" }, "minVolume", M.minAboveMax],
    ["risk % without a percent", { sizingMode: "risk_percent" }, "riskPercent", M.riskPercentRequired],
    ["fixed without a volume", { sizingMode: "fixed" }, "fixedVolume", M.fixedVolumeRequired],
    ["fixed volume 0", { sizingMode: "fixed", fixedVolume: "0" }, "fixedVolume", M.positiveVolume],
    ["min volume text", { minVolume: "lots" }, "minVolume", "Must be a decimal number"],
    ["magic 'abc'", { magicInclude: "100, abc" }, "magicInclude", M.magic],
    ["magic range 200-100", { magicExclude: "200-100" }, "magicExclude", M.magicRange],
    ["lifetime 0", { signalLifetimeSeconds: "0" }, "signalLifetimeSeconds", M.lifetime],
    ["lifetime 86401", { signalLifetimeSeconds: "86401" }, "signalLifetimeSeconds", M.lifetime],
    ["lifetime 1.5", { signalLifetimeSeconds: "1.5" }, "signalLifetimeSeconds", M.lifetime],
    ["lifetime blank", { signalLifetimeSeconds: " " }, "signalLifetimeSeconds", M.lifetime],
    ["risk percent 101", { sizingMode: "risk_percent", riskPercent: "101" }, "riskPercent", M.percentRange],
    ["profit target 0", { dailyProfitTargetPct: "0" }, "dailyProfitTargetPct", M.percentRange],
  ])("%s", (_name, over, field, message) => {
    const result = validateCopySettingsForm(form(over));
    expect(result).toEqual({ ok: false, errors: { [field]: message } });
  });
});

describe("issue paths → form fields (server 400s land on the right input)", () => {
  it.each<[string, keyof CopySettingsFormValues | null]>([
    ["sizing.mode", "sizingMode"],
    ["sizing.fixedVolume", "fixedVolume"],
    ["sizing.riskPercent", "riskPercent"],
    ["minVolume", "minVolume"],
    ["magic.include.3", "magicInclude"],
    ["magic.exclude", "magicExclude"],
    ["signalLifetimeSeconds", "signalLifetimeSeconds"],
    ["dailyProfitTargetPct", "dailyProfitTargetPct"],
    ["params.slaveAccountId", null],
    ["body", null],
  ])("%s → %s", (path, field) => {
    expect(fieldOfIssuePath(path)).toBe(field);
  });

  it("keeps the first message per field", () => {
    expect(
      errorsFromIssues([
        { path: "maxVolume", message: "Must be a decimal number" },
        { path: "maxVolume", message: "Must be greater than 0" },
        { path: ["magic", "include", 0], message: M.magic },
      ]),
    ).toEqual({ maxVolume: "Must be a decimal number", magicInclude: M.magic });
  });
});

describe("Auto sync (issue 14)", () => {
  it("labels every setting with a one-line help, in the contract's order", () => {
    expect(Object.keys(AUTO_SYNC_LABELS)).toEqual(autoSyncSchema.options);
    expect(AUTO_SYNC_LABELS).toEqual({ off: "Off — show differences only", close_orphans: "Close orphans", full: "Full repair" });
    for (const value of autoSyncSchema.options) expect(AUTO_SYNC_HELP[value]).toMatch(/^[A-Z][^\n]+$/);
  });

  it("is sent with the rest of the card and validated by the contract", () => {
    for (const value of autoSyncSchema.options) {
      const result = validateCopySettingsForm(form({ autoSync: value }));
      expect(result).toEqual({ ok: true, values: { ...COPY_SETTINGS_DEFAULTS, autoSync: value } });
    }
  });
});
