import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuildError, buildEa, HARNESS_DIR } from "./build.ts";

// The runtime (runtime/mql*.h + main.cpp) compiled with g++ from small MQL fixtures, with the
// simulated broker's default account (no broker.json), and run as processes.

const PROBE5 = path.join(HARNESS_DIR, "fixtures", "MQL5", "Experts", "HarnessProbe.mq5");
const PROBE4 = path.join(HARNESS_DIR, "fixtures", "MQL4", "Experts", "HarnessProbe4.mq4");

interface Run {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line matching, rejects when the process exits first. */
  waitFor: (re: RegExp) => Promise<string>;
  exit: Promise<number | null>;
}

function start(binary: string, args: string[]): Run {
  const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  let buf = "";
  let err = "";
  const waiters: { re: RegExp; resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  // A process that exits early (bad input, failed OnInit) closes its stdin: not an error here.
  child.stdin.on("error", () => undefined);
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c: string) => (err += c));
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`process exited before ${w.re}; output:\n${lines.join("\n")}\n${err}`));
    resolve(code);
  }));
  const waitFor = (re: RegExp): Promise<string> => {
    const found = lines.find((l) => re.test(l));
    if (found !== undefined) return Promise.resolve(found);
    if (child.exitCode !== null) return Promise.reject(new Error(`process already exited; output:\n${lines.join("\n")}`));
    return new Promise((resolve, reject) => waiters.push({ re, resolve, reject }));
  };
  return { child, lines, stderr: () => err, waitFor, exit };
}

/** Runs the binary, sends the commands one per line, and waits for it to exit. */
async function runToEnd(binary: string, args: string[], commands: string[]): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const r = start(binary, args);
  r.child.stdin.end(commands.map((c) => `${c}\n`).join(""));
  const code = await r.exit;
  return { code, lines: r.lines, stderr: r.stderr() };
}

function valueOf(lines: string[], key: string): string {
  const line = lines.find((l) => l.startsWith(`${key}=`));
  if (line === undefined) throw new Error(`no "${key}=" line in:\n${lines.join("\n")}`);
  return line.slice(key.length + 1);
}

let probe5 = "";
let probe4 = "";
let tmp = "";
let echoServer: http.Server;
let echoUrl = "";
let closedUrl = "";
const received: { body: Buffer; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  probe5 = (await buildEa(PROBE5)).binary;
  probe4 = (await buildEa(PROBE4)).binary;
  tmp = mkdtempSync(path.join(os.tmpdir(), "cb-harness-"));
  echoServer = http.createServer((req, res) => {
    if (req.url === "/chunked") {
      res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
      res.write("chunk one, ");
      res.write("chunk two ü");
      res.end();
      return;
    }
    if (req.url === "/slow") return; // never answers
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      received.push({ body, headers: req.headers });
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => echoServer.listen(0, "127.0.0.1", resolve));
  echoUrl = `http://127.0.0.1:${(echoServer.address() as AddressInfo).port}/echo`;
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/nothing`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
}, 180_000);

afterAll(async () => {
  echoServer?.closeAllConnections();
  await new Promise<void>((resolve) => (echoServer ? echoServer.close(() => resolve()) : resolve()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function filesDir(name: string): string {
  return path.join(tmp, name, "MQL5", "Files");
}

describe("MQL runtime built-ins (MQL5)", () => {
  let lines: string[] = [];

  beforeAll(async () => {
    const r = await runToEnd(probe5, ["--files", filesDir("builtins"), "--input", `InpEchoUrl=${echoUrl}`, "--input", `InpClosedUrl=${closedUrl}`, "--input", "InpDeniedUrl=http://denied.example/x", "--input", `InpChunkedUrl=${echoUrl.replace("/echo", "/chunked")}`, "--input", `InpSlowUrl=${echoUrl.replace("/echo", "/slow")}`, "--allow-url", "http://127.0.0.1"], ["quit"]);
    expect(r.code).toBe(0);
    lines = r.lines;
  });

  it("StringToCharArray copies the terminating zero unless given a count, and never shrinks the array", () => {
    expect(valueOf(lines, "zero")).toBe("4:4:0");
    // "abcdef" with count 3 into the 4-byte array of "abc\0": 3 copied, size stays 4.
    expect(valueOf(lines, "count")).toBe("3:4:abc");
  });

  it("strings are UTF-16: StringLen counts code units and CP_UTF8 round-trips non-ASCII text", () => {
    expect(valueOf(lines, "len")).toBe("9");
    // "Grüße €𝄞" is 15 UTF-8 bytes, plus the terminating zero.
    expect(valueOf(lines, "utf8")).toBe("16:true:Grüße €𝄞");
  });

  it("formats numbers like MQL: DoubleToString, (string) casts, StringFormat", () => {
    expect(valueOf(lines, "dts")).toBe("1.0846|1.50|-1.234e-05");
    expect(valueOf(lines, "cast")).toBe("1.5|0.3|1.0845|42|18446744073709551615");
    expect(valueOf(lines, "fmt")).toBe("ok| 3.14|-7|005|18446744073709551615|ff|%");
  });

  it("CryptEncode gives the FIPS 180-2 SHA-256 of \"abc\" and BASE64", () => {
    expect(valueOf(lines, "sha256")).toBe("32:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(valueOf(lines, "base64")).toBe("aGVsbG8=");
  });

  it("splits, replaces and finds in strings; includes resolve with <> and quotes", () => {
    expect(valueOf(lines, "split")).toBe("3:a||b");
    expect(valueOf(lines, "replace")).toBe("2:x+y+z:2:y");
    expect(valueOf(lines, "local")).toBe("42");
  });

  it("WebRequest sends the data array as is: a forgotten terminating zero reaches the server", () => {
    expect(valueOf(lines, "echo")).toBe('200:{"a":1}\\0');
    const req = received.at(-1);
    expect(req?.body.equals(Buffer.from('{"a":1}\0', "latin1"))).toBe(true);
    expect(req?.headers["content-length"]).toBe("8");
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(req?.headers["x-probe"]).toBe("1");
  });

  it("WebRequest reads chunked answers and fills result_headers", () => {
    expect(valueOf(lines, "chunked")).toBe("200:chunk one, chunk two ü");
    expect(valueOf(lines, "headers")).toBe("true");
  });

  it("WebRequest gives -1 with 5202 when the server does not answer within the timeout", () => {
    expect(valueOf(lines, "slow")).toBe("-1:5202");
  });

  it("WebRequest to a closed port returns -1 with 5201, outside --allow-url -1 with 4014", () => {
    expect(valueOf(lines, "closed")).toBe("-1:5201");
    expect(valueOf(lines, "denied")).toBe("-1:4014");
  });

  it("runs OnDeinit(REASON_CLOSE) on quit", () => {
    expect(valueOf(lines, "deinit")).toBe("9:9");
    expect(lines.at(-1)).toBe('@@ {"ok":true}');
  });
});

describe("the harness process", () => {
  it("keeps files and global variables across a restart", async () => {
    const dir = filesDir("restart");
    const first = await runToEnd(probe5, ["--files", dir], ["quit"]);
    expect(valueOf(first.lines, "file")).toBe("0");
    expect(valueOf(first.lines, "gv")).toBe("0");
    const second = await runToEnd(probe5, ["--files", dir], ["quit"]);
    expect(valueOf(second.lines, "file")).toBe("1");
    expect(valueOf(second.lines, "gv")).toBe("1");
  });

  it("overrides inputs with --input and refuses an unknown input name", async () => {
    const ok = await runToEnd(probe5, ["--files", filesDir("inputs"), "--input", "InpCounter=7", "--input", "InpRatio=0.25"], ["quit"]);
    expect(valueOf(ok.lines, "input")).toBe("7:0.25");
    const bad = await runToEnd(probe5, ["--files", filesDir("inputs"), "--input", "InpNoSuch=1"], ["quit"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown input InpNoSuch");
  });

  it("answers status, wait and unknown commands with @@ lines", async () => {
    const r = await runToEnd(probe5, ["--files", filesDir("commands")], ["status", "wait 20", "bogus", "book", "quit"]);
    const answers = r.lines.filter((l) => l.startsWith("@@ "));
    expect(answers[0]).toBe('@@ {"comment":"probe ready","lastError":0}');
    expect(answers[1]).toBe('@@ {"ok":true}');
    expect(answers[2]).toBe('@@ {"ok":false,"error":"unknown command: bogus"}');
    // Without broker.json the simulated broker opens a default empty account.
    expect(JSON.parse(answers[3]!.slice(3))).toMatchObject({ ok: true, positions: [], orders: [] });
    expect(answers[4]).toBe('@@ {"ok":true}');
  });

  it("fires OnTimer from the event loop after EventSetMillisecondTimer", async () => {
    const r = start(probe5, ["--files", filesDir("timer")]);
    await r.waitFor(/^timer=1$/);
    r.child.stdin.end("quit\n");
    expect(await r.exit).toBe(0);
  });

  it("runs OnDeinit(REASON_CLOSE) on SIGTERM and exits 0", async () => {
    const r = start(probe5, ["--files", filesDir("sigterm")]);
    await r.waitFor(/^ready$/);
    r.child.kill("SIGTERM");
    expect(await r.exit).toBe(0);
    expect(valueOf(r.lines, "deinit")).toBe("9:9");
  });

  it("exits 3 when OnInit fails, after OnDeinit(REASON_INITFAILED)", async () => {
    const r = await runToEnd(probe5, ["--files", filesDir("fail"), "--input", "InpFail=true"], []);
    expect(r.code).toBe(3);
    expect(r.lines.join("\n")).toContain("OnInit returned INIT_FAILED (1)");
    expect(valueOf(r.lines, "deinit")).toBe("8:8");
  });

  it("stops with exit code 4 on an array index out of range, like MQL's critical error", async () => {
    const r = await runToEnd(probe5, ["--files", filesDir("range"), "--input", "InpOutOfRange=true"], []);
    expect(r.code).toBe(4);
    expect(r.lines.join("\n")).toContain("critical runtime error: array out of range (index 2, size 2)");
    expect(r.lines.some((l) => l.startsWith("never="))).toBe(false);
  });

  it("ends the loop on ExpertRemove() with OnDeinit(REASON_REMOVE)", async () => {
    const r = start(probe5, ["--files", filesDir("remove"), "--input", "InpRemove=true"]);
    expect(await r.exit).toBe(0);
    expect(valueOf(r.lines, "deinit")).toBe("1:1");
  });
});

describe("MQL4 dialect", () => {
  it("uses 4060 for a URL outside the list, resets _LastError in GetLastError, returns trimmed strings", async () => {
    const r = await runToEnd(probe4, ["--files", path.join(tmp, "mql4", "MQL4", "Files")], ["quit"]);
    expect(r.code).toBe(0);
    expect(valueOf(r.lines, "denied4")).toBe("-1:4060:0");
    expect(valueOf(r.lines, "trim4")).toBe("[x y]");
    expect(valueOf(r.lines, "deinit4")).toBe("9");
  });
});

describe("build.ts", () => {
  it("reuses the cached binary when nothing changed", async () => {
    const again = await buildEa(PROBE5);
    expect(again).toEqual({ binary: probe5, compiled: false });
  });

  it("reports compile errors with the original file and line", async () => {
    const root = path.join(tmp, "broken", "MQL5");
    mkdirSync(path.join(root, "Experts"), { recursive: true });
    mkdirSync(path.join(root, "Include", "Broken"), { recursive: true });
    writeFileSync(path.join(root, "Include", "Broken", "Bad.mqh"), "// line 1\n// line 2\nint BadHelper() { return undeclared_name; }\n");
    writeFileSync(path.join(root, "Experts", "BrokenProbe.mq5"), "#property strict\n#include <Broken/Bad.mqh>\nint OnInit() { return BadHelper(); }\n");
    const err = await buildEa(path.join(root, "Experts", "BrokenProbe.mq5")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    expect((err as BuildError).message).toMatch(/Broken\/Bad\.mqh:3:\d+: error: .undeclared_name. was not declared/);
  });

  it("names a missing include", async () => {
    const root = path.join(tmp, "missing", "MQL5");
    mkdirSync(path.join(root, "Experts"), { recursive: true });
    writeFileSync(path.join(root, "Experts", "MissingProbe.mq5"), "#include <Nowhere/None.mqh>\nint OnInit() { return 0; }\n");
    await expect(buildEa(path.join(root, "Experts", "MissingProbe.mq5"))).rejects.toThrow(/include not found: Include\/Nowhere\/None\.mqh/);
  });
});
