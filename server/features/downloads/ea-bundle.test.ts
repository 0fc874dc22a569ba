import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { buildEaBundle, etagMatches, listEaSources } from "./ea-bundle.ts";
import { EA_README_NAME } from "./ea-readme.ts";

const dirs: string[] = [];

/** A terminals/ folder holding `files` (relative path → content). */
function terminalsWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cb-terminals-"));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const LAYOUT = {
  "MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5": "#property strict\n// master ✓\n",
  "MQL5/Include/CopyBridge/Hmac.mqh": "// hmac\r\n",
  "MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4": "// slave\n",
  "MQL4/Include/CopyBridge/Platform4.mqh": "// mt4\n",
  // Never shipped: compiled files, notes, anything outside MQL4/MQL5.
  "MQL5/Experts/CopyBridge/CopyBridgeMaster.ex5": "binary",
  "MQL5/README.md": "notes",
  "harness/runtime/mql.h": "// c++",
  "harness/fixtures/Fake.mqh": "// harness include",
  "harness/DESIGN.md": "design",
  "Stray.mq5": "// outside the platform folders",
};

describe("buildEaBundle", () => {
  it("zips every .mq4/.mq5/.mqh under MQL4/ and MQL5/ byte for byte, plus the readme, and nothing else", async () => {
    const root = terminalsWith(LAYOUT);
    const bundle = await buildEaBundle(root);
    expect(bundle).not.toBeNull();
    const unzipped = unzipSync(new Uint8Array(bundle!.zip));
    const expected = [
      "MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4",
      "MQL4/Include/CopyBridge/Platform4.mqh",
      "MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5",
      "MQL5/Include/CopyBridge/Hmac.mqh",
    ];
    expect(Object.keys(unzipped).sort()).toEqual([...expected, EA_README_NAME].sort());
    expect(bundle!.entries).toEqual([...expected, EA_README_NAME]);
    for (const rel of expected) expect(Buffer.from(unzipped[rel]!).equals(readFileSync(join(root, rel)))).toBe(true);
    const readme = strFromU8(unzipped[EA_README_NAME]!);
    expect(readme).toContain("Allow WebRequest for listed URL");
    expect(readme).toContain("CopyBridgeSlave");
  });

  it("gives the same bytes and ETag for the same files, another ETag when a file changes", async () => {
    const root = terminalsWith(LAYOUT);
    const a = await buildEaBundle(root);
    const b = await buildEaBundle(root);
    expect(b!.zip.equals(a!.zip)).toBe(true);
    expect(b!.etag).toBe(a!.etag);
    expect(a!.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    writeFileSync(join(root, "MQL4/Include/CopyBridge/Platform4.mqh"), "// mt4 v2\n");
    expect((await buildEaBundle(root))!.etag).not.toBe(a!.etag);
  });

  it("is null when there are no EA sources: missing folder, or only the harness", async () => {
    expect(await buildEaBundle(join(tmpdir(), "cb-no-such-terminals-folder"))).toBeNull();
    const harnessOnly = terminalsWith({ "harness/DESIGN.md": "design", "harness/x.mqh": "//" });
    expect(await buildEaBundle(harnessOnly)).toBeNull();
    expect(await listEaSources(harnessOnly)).toEqual([]);
  });
});

describe("etagMatches", () => {
  const etag = '"abc"';
  it("matches the tag, weak forms, lists and *", () => {
    expect(etagMatches('"abc"', etag)).toBe(true);
    expect(etagMatches('W/"abc"', etag)).toBe(true);
    expect(etagMatches('"x", "abc"', etag)).toBe(true);
    expect(etagMatches("*", etag)).toBe(true);
  });
  it("does not match other tags or no header", () => {
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches("", etag)).toBe(false);
    expect(etagMatches('"abcd"', etag)).toBe(false);
    expect(etagMatches("abc", etag)).toBe(false);
  });
});
