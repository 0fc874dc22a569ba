/**
 * Builds Expert Advisors for the harness: translates an EA and every file it includes
 * (recursively, DESIGN.md §3) into `terminals/harness/.build/<dialect>/src/…` (mirroring the
 * terminal folder), then compiles one translation unit (the EA + runtime/main.cpp) with
 * `g++ -std=c++17 -O1 -fsigned-char -D__MQL5__|-D__MQL4__ -Iruntime … -lcrypto` into
 * `.build/bin/<EAName>-<mt4|mt5>`. Compile errors name the original .mq5/.mq4/.mqh file and line
 * (`#line` directives). A build is skipped when the hash of every input (translations, runtime,
 * flags) matches the last successful one.
 *
 * CLI: `npx tsx terminals/harness/build.ts [EA.mq5|EA.mq4 ...]` (no EA: every EA under
 * terminals/MQL5/Experts and terminals/MQL4/Experts). Prints one binary path per line.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { dialectOf, maskMql, mqlIncludes, terminalRootOf, translateMql, type MqlDialect } from "./translate.ts";

export const HARNESS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = path.resolve(HARNESS_DIR, "..", "..");
export const RUNTIME_DIR = path.join(HARNESS_DIR, "runtime");
export const BUILD_DIR = path.join(HARNESS_DIR, ".build");
export const BIN_DIR = path.join(BUILD_DIR, "bin");

export interface BuildResult {
  /** Absolute path of the executable. */
  binary: string;
  /** False when the cached binary was reused. */
  compiled: boolean;
}

/** Error thrown when an include is missing or g++ fails; `message` holds the compiler output. */
export class BuildError extends Error {
  override name = "BuildError";
}

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const HANDLERS: { re: RegExp; flag: string }[] = [
  { re: /\bint\s+OnInit\s*\(/, flag: "-DMQL_HAS_ONINIT" },
  { re: /\bvoid\s+OnDeinit\s*\(/, flag: "-DMQL_HAS_ONDEINIT" },
  { re: /\bvoid\s+OnTick\s*\(/, flag: "-DMQL_HAS_ONTICK" },
  { re: /\bvoid\s+OnTimer\s*\(/, flag: "-DMQL_HAS_ONTIMER" },
  { re: /\bvoid\s+OnTradeTransaction\s*\(/, flag: "-DMQL_HAS_ONTRADETRANSACTION" },
];

/** -D flags for the event handlers the (masked) sources define. */
export function handlerFlags(maskedSources: string[]): string[] {
  const all = maskedSources.join("\n");
  const flags = HANDLERS.filter((h) => h.re.test(all)).map((h) => h.flag);
  if (/\bvoid\s+OnInit\s*\(/.test(all)) flags.push("-DMQL_HAS_ONINIT", "-DMQL_ONINIT_VOID");
  return flags;
}

/** Writes through a temporary file and a rename, so a concurrent g++ never reads half a file. */
function writeIfChanged(file: string, content: string): void {
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

/** Source text of an MQL file: UTF-8, or UTF-16LE with a BOM as older MetaEditor builds save it. */
function readSource(file: string): string {
  const buf = readFileSync(file);
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString("utf16le");
  return buf.toString("utf8");
}

function runtimeFingerprint(): string {
  const h = createHash("sha256");
  for (const f of readdirSync(RUNTIME_DIR).sort()) {
    const p = path.join(RUNTIME_DIR, f);
    if (statSync(p).isFile()) h.update(f).update(readFileSync(p));
  }
  return h.digest("hex");
}

/**
 * Translates and compiles one EA (.mq5 or .mq4). Resolves to the binary path; rejects with a
 * BuildError whose message carries g++'s output (original file names and lines).
 */
export async function buildEa(eaPath: string): Promise<BuildResult> {
  const abs = path.resolve(eaPath);
  const dialect: MqlDialect = dialectOf(abs);
  const ext = path.extname(abs).toLowerCase();
  if (ext !== ".mq5" && ext !== ".mq4") throw new BuildError(`${eaPath}: not an .mq5/.mq4 Expert Advisor`);
  const { root, relative } = terminalRootOf(abs);
  const srcDir = path.join(BUILD_DIR, dialect, "src");
  const hash = createHash("sha256");
  const masked: string[] = [];
  const seen = new Set<string>();
  const queue: { rel: string; from: string | null }[] = [{ rel: relative, from: null }];
  while (queue.length > 0) {
    const item = queue.shift();
    if (!item || seen.has(item.rel)) continue;
    seen.add(item.rel);
    const file = path.join(root, item.rel);
    if (!existsSync(file)) throw new BuildError(`${item.from ?? eaPath}: include not found: ${item.rel} (looked for ${path.relative(REPO_DIR, file)})`);
    const source = readSource(file);
    const shown = path.relative(REPO_DIR, file);
    const code = translateMql(source, { file: shown, dialect });
    writeIfChanged(path.join(srcDir, item.rel), code);
    hash.update(item.rel).update("\0").update(code).update("\0");
    masked.push(maskMql(source));
    for (const inc of mqlIncludes(source, { file })) queue.push({ rel: inc, from: shown });
  }
  const name = path.basename(abs, path.extname(abs));
  const platform = dialect === "mql5" ? "mt5" : "mt4";
  const binName = `${name}-${platform}`;
  const unit = path.join(srcDir, `${binName}.main.cpp`);
  writeIfChanged(unit, `#include "${relative}"\n#include "main.cpp"\n`);
  const flags = [
    "-std=c++17",
    "-O1",
    "-fsigned-char",
    dialect === "mql5" ? "-D__MQL5__" : "-D__MQL4__",
    `-DMQL_HARNESS_EA_NAME="${name}"`,
    ...handlerFlags(masked),
    "-I",
    RUNTIME_DIR,
    "-I",
    srcDir,
  ];
  hash.update(flags.join(" ")).update(runtimeFingerprint());
  const digest = hash.digest("hex");
  mkdirSync(BIN_DIR, { recursive: true });
  const binary = path.join(BIN_DIR, binName);
  const hashFile = `${binary}.hash`;
  if (existsSync(binary) && existsSync(hashFile) && readFileSync(hashFile, "utf8") === digest) return { binary, compiled: false };
  const tmp = `${binary}.tmp-${process.pid}-${Date.now()}`;
  const res = await run("g++", [...flags, "-o", tmp, unit, "-lcrypto"], REPO_DIR);
  if (res.code !== 0) throw new BuildError(`g++ failed for ${path.relative(REPO_DIR, abs)}:\n${res.stderr}${res.stdout}`);
  renameSync(tmp, binary);
  writeFileSync(hashFile, digest);
  return { binary, compiled: true };
}

/** Every EA under terminals/MQL5/Experts and terminals/MQL4/Experts. */
export function listEas(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.mq[45]$/i.test(e.name)) found.push(p);
    }
  };
  walk(path.join(REPO_DIR, "terminals", "MQL5", "Experts"));
  walk(path.join(REPO_DIR, "terminals", "MQL4", "Experts"));
  return found.sort();
}

/** Builds every EA (one g++ at a time); rejects with the first BuildError. */
export async function buildAll(): Promise<BuildResult[]> {
  const out: BuildResult[] = [];
  for (const ea of listEas()) out.push(await buildEa(ea));
  return out;
}

async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  const eas = args.filter((a) => !a.startsWith("--"));
  try {
    const results = eas.length > 0 ? await Promise.all(eas.map((e) => buildEa(e))) : await buildAll();
    for (const r of results) process.stdout.write(`${r.binary}${r.compiled ? "" : " (cached)"}\n`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main(process.argv);
