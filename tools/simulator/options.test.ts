import { describe, expect, it } from "vitest";
import { OptionsError, parseOptions, parseSlaveSpec } from "./options.ts";

const KEY = "cbk_master";
const SECRET = "a".repeat(64);
const base = ["--master-key", KEY, "--master-secret", SECRET];

describe("parseOptions", () => {
  it("applies defaults", () => {
    const o = parseOptions(base, {});
    expect(o).toMatchObject({ url: "http://127.0.0.1:3000", master: { apiKey: KEY, secret: SECRET }, slaves: [], ratePerMin: 20, durationS: 0, quiet: false, maxPositions: 6, flatten: true });
    expect(Number.isInteger(o.seed)).toBe(true);
  });

  it("reads repeated --slave KEY:SECRET[:ACCOUNT_ID] and keeps the first N", () => {
    const o = parseOptions([...base, "--slave", "k1:s1", "--slave", "k2:s2:acc-2", "--slave", "k3:s3", "--slaves", "2"], {});
    expect(o.slaves).toEqual([{ apiKey: "k1", secret: "s1" }, { apiKey: "k2", secret: "s2", accountId: "acc-2" }]);
  });

  it("reads a config file, and flags override it", () => {
    const file = JSON.stringify({ url: "http://10.0.0.5:4000", master: { apiKey: "fk", secret: "fs" }, slaves: [{ apiKey: "a", secret: "b", accountId: "x" }, { apiKey: "c", secret: "d", platform: "MT5" }] });
    const read = (p: string) => (p === "sim.json" ? file : "");
    const fromFile = parseOptions(["--config", "sim.json"], {}, read);
    expect(fromFile).toMatchObject({ url: "http://10.0.0.5:4000", master: { apiKey: "fk" }, slaves: [{ accountId: "x" }, { platform: "MT5" }] });
    const overridden = parseOptions(["--config", "sim.json", "--url", "http://127.0.0.1:3411/", "--master-key", "k", "--master-secret", "s", "--slaves", "1"], {}, read);
    expect(overridden).toMatchObject({ url: "http://127.0.0.1:3411", master: { apiKey: "k", secret: "s" }, slaves: [{ apiKey: "a" }] });
  });

  it("falls back to the environment, flags first", () => {
    const env = { SIM_URL: "http://h:1", SIM_MASTER_KEY: "ek", SIM_MASTER_SECRET: "es", SIM_SLAVES: "a:b,c:d:e", SIM_RATE: "60", SIM_DURATION: "30", SIM_SEED: "7", SIM_QUIET: "1" };
    expect(parseOptions([], env)).toMatchObject({ url: "http://h:1", master: { apiKey: "ek" }, slaves: [{ apiKey: "a" }, { apiKey: "c", accountId: "e" }], ratePerMin: 60, durationS: 30, seed: 7, quiet: true });
    expect(parseOptions(["--rate", "5", "--seed", "8"], env)).toMatchObject({ ratePerMin: 5, seed: 8 });
  });

  it("refuses bad input with a readable message", () => {
    const bad = (argv: string[], env: NodeJS.ProcessEnv = {}) => () => parseOptions(argv, env, () => "{not json");
    expect(bad([])).toThrow(/no credentials/);
    expect(bad(["--master-key", "k"])).toThrow(/go together/);
    expect(bad([...base, "--rate", "fast"])).toThrow(/invalid --rate/);
    expect(bad([...base, "--slave", "k1:s1", "--slaves", "3"])).toThrow(/only 1 slave/);
    expect(bad([...base, "--url", "localhost:3000"])).toThrow(/--url/);
    expect(bad([...base, "--config", "x.json"])).toThrow(/cannot read config/);
    expect(bad([...base, "--bogus"])).toThrow(OptionsError);
    expect(bad(["--help"])).toThrow("help");
  });
});

describe("parseSlaveSpec", () => {
  it("needs a key and a secret", () => {
    expect(parseSlaveSpec("k:s")).toEqual({ apiKey: "k", secret: "s" });
    expect(() => parseSlaveSpec("k")).toThrow(/KEY:SECRET/);
    expect(() => parseSlaveSpec("k:s:a:x")).toThrow(/KEY:SECRET/);
  });
});
