/**
 * Hmac.mqh and Json.mqh compiled by the harness (terminals/harness/build.ts) as MQL5 and MQL4,
 * run through the fixture EA terminals/harness/fixtures/hmac-vectors.mq5/.mq4 and checked against
 * node:crypto and JSON.parse: RFC 4231 HMAC-SHA256 test cases 1–4, 6, 7, the signing example of
 * docs/bridge-protocol.md §2 (with non-ASCII too), UTF-8 without the terminating zero, and JSON
 * writing / reading round trips (non-ASCII, quotes, control characters, 64-bit ticket strings).
 */
import { spawn } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEa, REPO_DIR } from "./harness/build.ts";
import { signRequest } from "../tools/bridge-client/sign.ts";

const hex = (v: string | Buffer): string => (typeof v === "string" ? Buffer.from(v, "utf8") : v).toString("hex");
const bytes = (h: string): Buffer => Buffer.from(h, "hex");
const hmac = (key: Buffer | string, msg: Buffer | string): string => createHmac("sha256", key).update(msg).digest("hex");

/** RFC 4231 §4 test cases (5 is a truncated output and is left out, as the RFC allows). */
const RFC4231: { name: string; key: Buffer; data: Buffer; expected: string }[] = [
  {
    name: "tc1",
    key: Buffer.alloc(20, 0x0b),
    data: Buffer.from("Hi There"),
    expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
  },
  {
    name: "tc2",
    key: Buffer.from("Jefe"),
    data: Buffer.from("what do ya want for nothing?"),
    expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  },
  {
    name: "tc3",
    key: Buffer.alloc(20, 0xaa),
    data: Buffer.alloc(50, 0xdd),
    expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
  },
  {
    name: "tc4",
    key: bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"),
    data: Buffer.alloc(50, 0xcd),
    expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
  },
  {
    name: "tc6",
    key: Buffer.alloc(131, 0xaa),
    data: Buffer.from("Test Using Larger Than Block-Size Key - Hash Key First"),
    expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
  },
  {
    name: "tc7",
    key: Buffer.alloc(131, 0xaa),
    data: Buffer.from(
      "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
    ),
    expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
  },
];

const SECRET = "3f9a0c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";
/** docs/bridge-protocol.md §2, copy-paste example. */
const DOC_BODY = '{"login":"50001234","server":"ICMarkets-Demo","balance":"10000.00","equity":"10012.50","currency":"USD"}';
const DOC_MESSAGE = `POST/v1/master/heartbeat1732200000${DOC_BODY}`;
const NON_ASCII_BODY = '{"comment":"Grüße € 😀","server":"Брокер-Demo"}';
const NON_ASCII_MESSAGE = `POST/v1/master/heartbeat1732200001${NON_ASCII_BODY}`;

/** Every control character, quotes, backslashes, non-ASCII (BMP and astral). */
const TRICKY = `q"b\\s/${Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join("")}é€😀 Ωmega`;
const ROUND_TRIPS: Record<string, string> = {
  empty: "",
  ascii: "hello world",
  quotes: 'say "hi" \\ \\\\ "',
  controls: Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join(""),
  nonAscii: "Grüße – Привет – 日本語 – 😀🚀",
  tricky: TRICKY,
};

const READ_DOC = JSON.stringify({
  orders: [
    { orderId: "o-1", masterTicket: "18446744073709551615", n: 0, x: null, ok: true, s: "a\u00e9\n\"q😀" },
    { nested: { deep: [1, [2, 3], { k: "v" }] } },
  ],
  config: { profile: null, riskEnabled: false },
});
// 2^53 + 1 is not a double: written into the text by hand so it keeps all digits.
const READ_TEXT = READ_DOC.replace('"n":0', '"n":9007199254740993');
const ESCAPED_TEXT = '{"s":"\\u0041\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/","e":"","a":[]}';

/** The fixture's cases.txt lines (arguments hex-encoded, see the fixture's header). */
function cases(): { line: string }[] {
  const out: { line: string }[] = [];
  out.push({ line: "sha empty -" });
  out.push({ line: `sha abc ${hex("abc")}` });
  out.push({ line: `sha long ${hex(Buffer.alloc(1000, 0x61))}` });
  for (const tc of RFC4231) out.push({ line: `hmac ${tc.name} ${hex(tc.key)} ${hex(tc.data)}` });
  out.push({ line: `hmacstr doc ${hex(SECRET)} ${hex(DOC_MESSAGE)}` });
  out.push({ line: `hmacstr nonascii ${hex(SECRET)} ${hex(NON_ASCII_MESSAGE)}` });
  out.push({ line: `utf8 mixed ${hex("aé€😀")}` });
  out.push({ line: `utf8 empty -` });
  out.push({ line: `jsonw tricky ${hex(TRICKY)}` });
  for (const [name, v] of Object.entries(ROUND_TRIPS)) out.push({ line: `rt ${name} ${v === "" ? "-" : hex(v)}` });
  const reads: [string, string, string][] = [
    ["ticket", READ_TEXT, "orders.0.masterTicket"],
    ["big", READ_TEXT, "orders.0.n"],
    ["null", READ_TEXT, "orders.0.x"],
    ["bool", READ_TEXT, "orders.0.ok"],
    ["str", READ_TEXT, "orders.0.s"],
    ["orders", READ_TEXT, "orders"],
    ["deep", READ_TEXT, "orders.1.nested.deep.1.0"],
    ["deepobj", READ_TEXT, "orders.1.nested.deep.2.k"],
    ["profile", READ_TEXT, "config.profile"],
    ["missing", READ_TEXT, "orders.5.orderId"],
    ["escapes", ESCAPED_TEXT, "s"],
    ["emptyarr", ESCAPED_TEXT, "a"],
    ["root", ESCAPED_TEXT, "-"],
    ["bad", '{"a":[1,2}', "a"],
    ["trailing", '{"a":1} x', "a"],
    ["rawctl", '{"a":"x\ny"}', "a"],
  ];
  for (const [name, text, path] of reads) out.push({ line: `jsonr ${name} ${hex(text)} ${path === "-" ? "-" : hex(path)}` });
  out.push({ line: "dec price 1.084567 5" });
  out.push({ line: "dec negzero -0.0000001 2" });
  out.push({ line: "dec trimmed 0.10000 -1" });
  out.push({ line: "dec whole 12.0 -1" });
  out.push({ line: "dec money 10012.5 2" });
  return out;
}

/** Runs the fixture binary over the cases; returns `kind name` → rest of its CBT line. */
async function runFixture(binary: string): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), "cb-hmac-json-"));
  try {
    writeFileSync(join(dir, "cases.txt"), `${cases().map((c) => c.line).join("\n")}\n`);
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(binary, ["--files", dir, "--input", "InpCases=cases.txt"], { stdio: ["pipe", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (c: Buffer) => (text += c.toString("utf8")));
      child.stderr.on("data", (c: Buffer) => (text += c.toString("utf8")));
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`fixture exited with ${code}:\n${text}`))));
      // The fixture reads its cases from the file and may exit before it reads "quit": a pipe it
      // closed first (EPIPE) is not a failure — its exit code and output decide.
      child.stdin.on("error", () => undefined);
      child.stdin.end("quit\n");
    });
    const results = new Map<string, string>();
    for (const line of output.split("\n")) {
      const m = /CBT (\S+) (\S+) ?(.*)$/.exec(line);
      if (m) results.set(`${m[1]} ${m[2]}`, m[3] ?? "");
    }
    if (!output.includes("CBT done")) throw new Error(`fixture did not finish:\n${output}`);
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each([
  { dialect: "MQL5", fixture: "terminals/harness/fixtures/hmac-vectors.mq5" },
  { dialect: "MQL4", fixture: "terminals/harness/fixtures/hmac-vectors.mq4" },
])("Hmac.mqh and Json.mqh as $dialect", ({ fixture }) => {
  let results = new Map<string, string>();
  const get = (key: string): string => {
    const v = results.get(key);
    if (v === undefined) throw new Error(`no result for ${key}`);
    return v;
  };

  beforeAll(async () => {
    const { binary } = await buildEa(join(REPO_DIR, fixture));
    results = await runFixture(binary);
  }, 300_000);

  afterAll(() => {
    results.clear();
  });

  it("hashes SHA-256 like node:crypto", () => {
    expect(get("sha empty")).toBe(createHash("sha256").update("").digest("hex"));
    expect(get("sha abc")).toBe(createHash("sha256").update("abc").digest("hex"));
    expect(get("sha long")).toBe(createHash("sha256").update(Buffer.alloc(1000, 0x61)).digest("hex"));
  });

  it.each(RFC4231)("computes RFC 4231 HMAC-SHA256 $name", ({ name, key, data, expected }) => {
    expect(hmac(key, data)).toBe(expected);
    expect(get(`hmac ${name}`)).toBe(expected);
  });

  it("signs the docs/bridge-protocol.md example exactly like the server's signing code", () => {
    const expected = signRequest(SECRET, "POST", "/v1/master/heartbeat", 1732200000, DOC_BODY);
    expect(hmac(SECRET, DOC_MESSAGE)).toBe(expected);
    expect(get("hmacstr doc")).toBe(expected);
  });

  it("signs non-ASCII bodies over their UTF-8 bytes", () => {
    const expected = signRequest(SECRET, "POST", "/v1/master/heartbeat", 1732200001, NON_ASCII_BODY);
    expect(get("hmacstr nonascii")).toBe(expected);
  });

  it("encodes UTF-8 without the terminating zero", () => {
    expect(get("utf8 mixed")).toBe(`${Buffer.byteLength("aé€😀")} ${hex("aé€😀")}`);
    expect(get("utf8 empty")).toBe("0 ");
  });

  it("writes JSON that JSON.parse reads back exactly, with control characters escaped", () => {
    const text = bytes(get("jsonw tricky")).toString("utf8");
    for (const ch of text) expect(ch.charCodeAt(0)).toBeGreaterThanOrEqual(0x20);
    expect(text).toContain("\\u0001");
    expect(text).toContain("\\n");
    expect(text).toContain('\\"');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(parsed.value).toBe(TRICKY);
    expect(parsed[TRICKY]).toBe("as key");
    expect(parsed.price).toBe("1.08456");
    expect(parsed.nested).toEqual({ ticket: "18446744073709551615" });
    expect(text).toContain("-9007199254740993");
    expect((parsed.list as unknown[]).slice(0, 1)).toEqual([TRICKY]);
    expect((parsed.list as unknown[]).slice(2)).toEqual([true, null]);
  });

  it.each(Object.keys(ROUND_TRIPS))("round-trips the %s string through writer and reader", (name) => {
    expect(get(`rt ${name}`)).toBe("ok");
  });

  it("reads 64-bit tickets as exact strings and integers", () => {
    expect(get("jsonr ticket")).toBe(`ok 3 ${hex("18446744073709551615")} 9223372036854775807 0 notnull`);
    expect(get("jsonr big")).toBe(`ok 2 ${hex("9007199254740993")} 9007199254740993 0 notnull`);
  });

  it("reads null, booleans, escapes, nested paths and counts", () => {
    expect(get("jsonr null")).toBe("ok 0  -1 0 null");
    expect(get("jsonr bool")).toBe(`ok 1 ${hex("true")} -1 0 notnull`);
    expect(get("jsonr str")).toBe(`ok 3 ${hex('aé\n"q😀')} 0 0 notnull`);
    expect(get("jsonr orders")).toBe("ok 5  -1 2 notnull");
    expect(get("jsonr deep")).toBe(`ok 2 ${hex("2")} 2 0 notnull`);
    expect(get("jsonr deepobj")).toBe(`ok 3 ${hex("v")} 0 0 notnull`);
    expect(get("jsonr profile")).toBe("ok 0  -1 0 null");
    expect(get("jsonr missing")).toBe("ok -1  -1 0 null");
    expect(get("jsonr escapes")).toBe(`ok 3 ${hex('Aé😀\n\t"\\/')} 0 0 notnull`);
    expect(get("jsonr emptyarr")).toBe("ok 5  -1 0 notnull");
    expect(get("jsonr root")).toBe("ok 4  -1 3 notnull");
  });

  it("refuses malformed JSON", () => {
    expect(get("jsonr bad").startsWith("fail")).toBe(true);
    expect(get("jsonr trailing").startsWith("fail")).toBe(true);
    expect(get("jsonr rawctl").startsWith("fail")).toBe(true);
  });

  it("writes decimals with explicit digits and no negative zero", () => {
    expect(get("dec price")).toBe("1.08457");
    expect(get("dec negzero")).toBe("0.00");
    expect(get("dec trimmed")).toBe("0.1");
    expect(get("dec whole")).toBe("12");
    expect(get("dec money")).toBe("10012.50");
  });
});
