/**
 * Mechanical MQL → C++ translation of DESIGN.md §3, applied to .mq4, .mq5 and every .mqh:
 *   1. `#property …` lines become comments;
 *   2. `input T n = v;` / `sinput T n = v;` → `MQL_INPUT(T, n, v);` (the trailing comment is kept);
 *   3. `#include <X>` → `#include "Include/X"` and `#include "Y"` → the path of Y relative to the
 *      terminal root (the folder holding Experts/ and Include/); build.ts compiles with
 *      `-I .build/<dialect>/src`, where the translations mirror the terminal folder;
 *   4. dynamic arrays `T name[]` → `MqlArray<T> name`, `T &name[]` → `MqlArray<T> &name`,
 *      `const T &name[]` → `const MqlArray<T> &name` (a continued declarator `, b[]` → `, b`);
 *   5. the file starts with `#include "mql.h"` and a `#line 1 "<file>"` directive; every rule keeps
 *      the line structure, so g++ reports the original file and line.
 * Nothing else is rewritten. Strings and comments are never touched by rule 4.
 *
 * CLI: `npx tsx terminals/harness/translate.ts <file.mq5|.mq4|.mqh> [--dialect mql4|mql5]`
 * prints the translation to stdout.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type MqlDialect = "mql4" | "mql5";

export interface TranslateOptions {
  /** Path of the source file: shown in `#line` (so in compiler errors) and used to resolve includes. */
  file: string;
  /** MQL4 or MQL5 (for .mqh files; .mq4/.mq5 imply it). */
  dialect: MqlDialect;
}

/** Dialect implied by a file name (.mq4 → mql4, .mq5 → mql5), or `fallback` for .mqh. */
export function dialectOf(file: string, fallback: MqlDialect = "mql5"): MqlDialect {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".mq4") return "mql4";
  if (ext === ".mq5") return "mql5";
  return fallback;
}

/**
 * Splits a path into its terminal root (the folder named MQL4/MQL5 that holds it, else the
 * file's own folder) and the path relative to that root, both with forward slashes.
 */
export function terminalRootOf(file: string): { root: string; relative: string } {
  const norm = file.replace(/\\/g, "/");
  const parts = norm.split("/");
  for (let i = parts.length - 2; i >= 0; i--) {
    if (parts[i] === "MQL5" || parts[i] === "MQL4") {
      return { root: parts.slice(0, i + 1).join("/"), relative: parts.slice(i + 1).join("/") };
    }
  }
  return { root: path.posix.dirname(norm), relative: path.posix.basename(norm) };
}

/**
 * Returns a copy of `code` in which comments and the contents of string and character
 * literals are replaced by spaces (newlines kept), so that regexes only see code.
 */
export function maskMql(code: string): string {
  const out = code.split("");
  let i = 0;
  const n = code.length;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  while (i < n) {
    const c = code[i];
    if (c === "/" && code[i + 1] === "/") {
      const end = code.indexOf("\n", i);
      const stop = end === -1 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && code[i + 1] === "*") {
      const end = code.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < n && code[k] !== c && code[k] !== "\n") k += code[k] === "\\" ? 2 : 1;
      blank(i + 1, Math.min(k, n));
      i = k + 1;
    } else {
      i++;
    }
  }
  return out.join("");
}

const INCLUDE_RE = /^(\s*)#include\s*([<"])([^>"]+)[>"](.*)$/;
const PROPERTY_RE = /^\s*#property\b/;
const INPUT_RE = /^(\s*)(?:input|sinput)\s+(.*)$/;
const ARRAY_RE = /\b(const\s+)?([A-Za-z_]\w*)(\s*&\s*|\s+)([A-Za-z_]\w*)\s*\[\s*\]/g;
const CONTINUED_ARRAY_RE = /,(\s*)([A-Za-z_]\w*)\s*\[\s*\]/g;
const NOT_A_TYPE = new Set(["return", "else", "case", "new", "delete", "goto", "sizeof", "typedef", "operator"]);

/** Root-relative path of the file an `#include` names (`<…>` under Include/, `"…"` beside the file). */
export function resolveInclude(fromRelative: string, kind: "<" | '"', target: string): string {
  const t = target.replace(/\\/g, "/");
  if (kind === "<") return path.posix.normalize(`Include/${t}`);
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromRelative), t));
}

/** Root-relative paths of the files a source includes, in order. */
export function mqlIncludes(source: string, opts: Pick<TranslateOptions, "file">): string[] {
  const { relative } = terminalRootOf(opts.file);
  const masked = maskMql(source).split("\n");
  const lines = source.split("\n");
  const found: string[] = [];
  lines.forEach((line, idx) => {
    if (!/^\s*#include/.test(masked[idx] ?? "")) return;
    const m = INCLUDE_RE.exec(line);
    if (m) found.push(resolveInclude(relative, m[2] as "<" | '"', m[3] ?? ""));
  });
  return found;
}

/** Rule 2: one `input`/`sinput` line → `MQL_INPUT(T, n, v);` keeping what follows the `;`. */
function translateInput(indent: string, rest: string, maskedRest: string): string | null {
  // Declaration end: the first ';' outside literals and comments.
  const semi = maskedRest.indexOf(";");
  if (semi === -1) return null;
  const decl = rest.slice(0, semi);
  const maskedDecl = maskedRest.slice(0, semi);
  const tail = rest.slice(semi + 1);
  const eq = maskedDecl.indexOf("=");
  const left = (eq === -1 ? decl : decl.slice(0, eq)).trim();
  const value = eq === -1 ? "" : decl.slice(eq + 1).trim();
  const m = /^(.+?)\s+([A-Za-z_]\w*)$/.exec(left);
  if (!m) return null;
  const type = (m[1] ?? "").trim();
  const name = m[2] ?? "";
  return `${indent}MQL_INPUT(${type}, ${name}, ${value === "" ? `${type}()` : value});${tail}`;
}

/** Rule 4 on one line (positions found on the masked line, replaced in the original). */
function translateArrays(line: string, masked: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const m of masked.matchAll(ARRAY_RE)) {
    const type = m[2] ?? "";
    if (NOT_A_TYPE.has(type) || NOT_A_TYPE.has(m[4] ?? "")) continue;
    const start = m.index;
    const end = start + m[0].length;
    const orig = line.slice(start, end);
    const om = new RegExp(ARRAY_RE.source).exec(orig);
    if (!om) continue;
    const constPart = om[1] ?? "";
    const sep = om[3] ?? " ";
    const name = om[4] ?? "";
    edits.push({ start, end, text: `${constPart}MqlArray<${om[2] ?? ""}>${sep.includes("&") ? sep : " "}${name}` });
  }
  let outLine = line;
  let outMasked = masked;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    outLine = outLine.slice(0, e.start) + e.text + outLine.slice(e.end);
    outMasked = outMasked.slice(0, e.start) + e.text + outMasked.slice(e.end);
  }
  if (edits.length === 0) return outLine;
  // `, name[]` continuing a translated array declaration.
  const cont: { start: number; end: number; text: string }[] = [];
  for (const m of outMasked.matchAll(CONTINUED_ARRAY_RE)) {
    cont.push({ start: m.index, end: m.index + m[0].length, text: `,${m[1] ?? ""}${m[2] ?? ""}` });
  }
  for (const e of cont.sort((a, b) => b.start - a.start)) outLine = outLine.slice(0, e.start) + e.text + outLine.slice(e.end);
  return outLine;
}

/**
 * Translates one MQL source file into C++ for the harness (DESIGN.md §3). Pure: no I/O.
 * `opts.file` is quoted in the `#line` directive and anchors include resolution.
 */
export function translateMql(source: string, opts: TranslateOptions): string {
  const { relative } = terminalRootOf(opts.file);
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const masked = maskMql(text).split("\n");
  const lines = text.split("\n");
  const out = lines.map((line, idx) => {
    const mline = masked[idx] ?? "";
    if (PROPERTY_RE.test(mline)) return `// ${line}`;
    if (/^\s*#include/.test(mline)) {
      const m = INCLUDE_RE.exec(line);
      if (!m) return line;
      const target = resolveInclude(relative, m[2] as "<" | '"', m[3] ?? "");
      return `${m[1] ?? ""}#include "${target}"${m[4] ?? ""}`;
    }
    const im = INPUT_RE.exec(mline);
    if (im) {
      const indent = im[1] ?? "";
      const translated = translateInput(indent, line.slice(indent.length).replace(/^(?:input|sinput)\s+/, ""), mline.slice(indent.length).replace(/^(?:input|sinput)\s+/, ""));
      if (translated !== null) return translateArrays(translated, maskMql(translated));
    }
    return translateArrays(line, mline);
  });
  const shown = opts.file.replace(/\\/g, "/").replace(/"/g, '\\"');
  return `#include "mql.h"  // harness runtime (${opts.dialect})\n#line 1 "${shown}"\n${out.join("\n")}`;
}

function main(argv: string[]): void {
  const args = argv.slice(2);
  const file = args.find((a) => !a.startsWith("--"));
  const di = args.indexOf("--dialect");
  if (!file) {
    console.error("usage: translate.ts <file.mq5|file.mq4|file.mqh> [--dialect mql4|mql5]");
    process.exit(2);
  }
  const dialectArg = di >= 0 ? args[di + 1] : undefined;
  const dialect: MqlDialect = dialectArg === "mql4" || dialectArg === "mql5" ? dialectArg : dialectOf(file);
  process.stdout.write(translateMql(readFileSync(file, "utf8"), { file, dialect }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv);
