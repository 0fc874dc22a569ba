/**
 * The shared MQL includes (terminals/harness/DESIGN.md §1, files marked [shared]) are edited in
 * terminals/MQL5/Include/CopyBridge and copied to terminals/MQL4/Include/CopyBridge by
 * `npm run terminals:sync`: the two copies must be byte-identical.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MQL4_INCLUDE_DIR, MQL5_INCLUDE_DIR, SHARED_INCLUDES } from "../tools/terminals-sync.mjs";

const names = [...SHARED_INCLUDES];
const mql5Dir = MQL5_INCLUDE_DIR;
const mql4Dir = MQL4_INCLUDE_DIR;

describe("shared MQL includes", () => {
  it("lists the nine shared files of DESIGN.md §1", () => {
    expect([...names].sort()).toEqual(
      ["Hmac.mqh", "Http.mqh", "Json.mqh", "MasterCore.mqh", "Protocol.mqh", "SlaveCore.mqh", "Status.mqh", "Store.mqh", "Types.mqh"].sort(),
    );
  });

  it.each(names)("MQL4/Include/CopyBridge/%s is a byte-identical copy of the MQL5 file (run npm run terminals:sync)", (name) => {
    const mql5 = readFileSync(join(mql5Dir, name));
    const mql4 = readFileSync(join(mql4Dir, name));
    expect(mql4.equals(mql5)).toBe(true);
  });

  it.each(names)("%s is marked [shared] in its header", (name) => {
    const text = readFileSync(join(mql5Dir, name), "utf8");
    expect(text.split("\n").slice(0, 3).join("\n")).toContain("[shared]");
  });
});
