import { describe, expect, it } from "vitest";
import { handlerFlags } from "./build.ts";
import { dialectOf, maskMql, mqlIncludes, terminalRootOf, translateMql } from "./translate.ts";

const EA = "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5";

/** The translated lines after the two header lines. */
function body(source: string, file = EA): string[] {
  return translateMql(source, { file, dialect: dialectOf(file) }).split("\n").slice(2);
}

describe("translateMql (DESIGN.md §3)", () => {
  it("starts with the runtime include and a #line directive naming the original file", () => {
    const out = translateMql("int x = 1;\n", { file: EA, dialect: "mql5" }).split("\n");
    expect(out[0]).toMatch(/^#include "mql\.h"/);
    expect(out[1]).toBe(`#line 1 "${EA}"`);
    expect(out[2]).toBe("int x = 1;");
  });

  it("keeps the line structure so compiler lines match the source", () => {
    const src = '#property strict\ninput int InpA = 1; // a\nuchar buf[];\n#include <CopyBridge/Json.mqh>\nvoid f() {}\n';
    expect(body(src)).toHaveLength(src.split("\n").length);
  });

  it("rule 1: #property lines become comments", () => {
    expect(body('#property copyright "CopyBridge"\n#property strict')).toEqual(['// #property copyright "CopyBridge"', "// #property strict"]);
  });

  it("rule 2: input and sinput become MQL_INPUT, keeping the trailing comment", () => {
    expect(body('input string InpServerUrl = "";  // Server URL (e.g. https://copy.example.com)')).toEqual([
      'MQL_INPUT(string, InpServerUrl, "");  // Server URL (e.g. https://copy.example.com)',
    ]);
    expect(body("sinput int InpVerbosity = 1; // Log verbosity")).toEqual(["MQL_INPUT(int, InpVerbosity, 1); // Log verbosity"]);
    expect(body('input string InpList = "a;b // c"; // list')).toEqual(['MQL_INPUT(string, InpList, "a;b // c"); // list']);
    expect(body("input ENUM_MODE InpMode = MODE_A;")).toEqual(["MQL_INPUT(ENUM_MODE, InpMode, MODE_A);"]);
  });

  it("does not treat identifiers that merely start with input as inputs", () => {
    expect(body("int inputs = 2;")).toEqual(["int inputs = 2;"]);
  });

  it("rule 3: <…> includes resolve under Include/, quoted ones beside the file", () => {
    expect(body("#include <CopyBridge/Hmac.mqh>")).toEqual(['#include "Include/CopyBridge/Hmac.mqh"']);
    expect(body('#include "Local.mqh"')).toEqual(['#include "Experts/CopyBridge/Local.mqh"']);
    expect(body('#include "../Shared/X.mqh"', "terminals/MQL4/Include/CopyBridge/A.mqh")).toEqual(['#include "Include/Shared/X.mqh"']);
  });

  it("rule 4: dynamic arrays become MqlArray in declarations, parameters and members", () => {
    expect(body("uchar buf[];")).toEqual(["MqlArray<uchar> buf;"]);
    expect(body("bool CbSha256(const uchar &data[], uchar &digest[])")).toEqual(["bool CbSha256(const MqlArray<uchar> &data, MqlArray<uchar> &digest)"]);
    expect(body("int f(CbOrder& orders[], const string  & names [ ])")).toEqual(["int f(MqlArray<CbOrder>& orders, const MqlArray<string>  & names)"]);
    expect(body("   CbBookEntry positions[];   // open positions")).toEqual(["   MqlArray<CbBookEntry> positions;   // open positions"]);
    expect(body("char post[], result[];")).toEqual(["MqlArray<char> post, result;"]);
  });

  it("rule 4 leaves strings, comments, fixed arrays and indexing alone", () => {
    expect(body('string s = "uchar a[]"; // uchar b[]')).toEqual(['string s = "uchar a[]"; // uchar b[]']);
    expect(body("/* int c[] */ x = a[i];")).toEqual(["/* int c[] */ x = a[i];"]);
    expect(body("double fixed[4];")).toEqual(["double fixed[4];"]);
  });

  it("rewrites nothing else", () => {
    const src = 'string s = (string)x + "a";\nif(a != NULL) { Print(StringFormat("%d", 1)); }\nclass C { public: int m_x; };';
    expect(body(src)).toEqual(src.split("\n"));
  });
});

describe("helpers", () => {
  it("finds the terminal root and the dialect", () => {
    expect(terminalRootOf("/r/terminals/MQL4/Include/CopyBridge/Json.mqh")).toEqual({ root: "/r/terminals/MQL4", relative: "Include/CopyBridge/Json.mqh" });
    expect(dialectOf("a/B.mq4")).toBe("mql4");
    expect(dialectOf("a/B.mq5")).toBe("mql5");
    expect(dialectOf("a/B.mqh", "mql4")).toBe("mql4");
  });

  it("lists includes and masks literals and comments", () => {
    expect(mqlIncludes('#include <CopyBridge/Types.mqh>\n// #include <No.mqh>\n#include "Near.mqh"', { file: EA })).toEqual([
      "Include/CopyBridge/Types.mqh",
      "Experts/CopyBridge/Near.mqh",
    ]);
    expect(maskMql('a = "x[]"; // y\nb')).toBe('a = "   ";     \nb');
  });

  it("detects the event handlers an EA defines", () => {
    expect(handlerFlags(["int OnInit() { return 0; }\nvoid OnTimer()\n{}\nvoid OnTradeTransaction(const MqlTradeTransaction &t, const MqlTradeRequest &r, const MqlTradeResult &s) {}"])).toEqual([
      "-DMQL_HAS_ONINIT",
      "-DMQL_HAS_ONTIMER",
      "-DMQL_HAS_ONTRADETRANSACTION",
    ]);
    expect(handlerFlags(["void OnInit() {}"])).toEqual(["-DMQL_HAS_ONINIT", "-DMQL_ONINIT_VOID"]);
  });
});
