/**
 * EA profile values a person types on the risk screen (spec §3 risk settings form): trading hours
 * and the symbol white/black lists. The slave EA enforces both (terminals/…/SlaveCore.mqh
 * `CbInTradingHours`, `CbInList`); the grammar here is exactly what the EA reads.
 *
 * Trading hours grammar (broker time; whitespace around tokens is ignored; empty = always):
 *
 * ```
 * hours := "" | range ( "," range )*          at most 200 characters (≤ 14 ranges)
 * range := days ":" time "-" time             e.g. Mon-Fri:00:00-23:59, Sat:10:00-12:00
 * days  := day | day "-" day                  a day range may wrap (Fri-Mon)
 * day   := Mon | Tue | Wed | Thu | Fri | Sat | Sun   (any case; stored capitalised)
 * time  := H:MM | HH:MM                       00:00 … 23:59; start > end runs over midnight;
 *                                             the end minute is included
 * ```
 */
import { z } from "zod";
import { hasControlChars } from "./common.ts";

export const TRADING_HOURS_MAX_LENGTH = 200;
export const TRADING_HOURS_MESSAGE = "Trading hours must look like Mon-Fri:00:00-23:59 (several ranges separated by commas)";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const RANGE_RE = /^([A-Za-z]{3})(?:-([A-Za-z]{3}))?:(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})$/;

/** One parsed range: days 0 = Sunday … 6 = Saturday, minutes since midnight (broker time). */
export interface TradingHoursRange {
  fromDay: number;
  toDay: number;
  startMinute: number;
  endMinute: number;
}

function dayIndex(name: string): number {
  return DAYS.findIndex((d) => d.toLowerCase() === name.toLowerCase());
}

function minuteOf(h: string, m: string): number {
  const hh = Number(h);
  const mm = Number(m);
  return hh <= 23 && mm <= 59 ? hh * 60 + mm : -1;
}

const pad = (n: number) => String(n).padStart(2, "0");
const hhmm = (minute: number) => `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;

/**
 * Parses trading hours (grammar in the module comment). Answers the ranges, or the message naming
 * the first bad range. An empty text is no restriction (`[]`).
 */
export function parseTradingHours(spec: string): { ok: true; ranges: TradingHoursRange[] } | { ok: false; message: string } {
  const compact = spec.replace(/\s+/g, "");
  if (compact === "") return { ok: true, ranges: [] };
  const parts = compact.split(",");
  const ranges: TradingHoursRange[] = [];
  for (const part of parts) {
    const m = RANGE_RE.exec(part);
    const bad = { ok: false as const, message: `${TRADING_HOURS_MESSAGE}: "${part.slice(0, 40)}" is not understood` };
    if (!m) return bad;
    const [, d1 = "", d2, h1 = "", m1 = "", h2 = "", m2 = ""] = m;
    const fromDay = dayIndex(d1);
    const toDay = d2 === undefined ? fromDay : dayIndex(d2);
    const startMinute = minuteOf(h1, m1);
    const endMinute = minuteOf(h2, m2);
    if (fromDay < 0 || toDay < 0 || startMinute < 0 || endMinute < 0) return bad;
    ranges.push({ fromDay, toDay, startMinute, endMinute });
  }
  return { ok: true, ranges };
}

/** The canonical text of parsed ranges ("mon-fri:0:00-23:59" → "Mon-Fri:00:00-23:59"). */
export function formatTradingHours(ranges: readonly TradingHoursRange[]): string {
  return ranges
    .map((r) => {
      const days = r.fromDay === r.toDay ? DAYS[r.fromDay] : `${DAYS[r.fromDay]}-${DAYS[r.toDay]}`;
      return `${days}:${hhmm(r.startMinute)}-${hhmm(r.endMinute)}`;
    })
    .join(",");
}

/** Trading hours as typed: bounded, parsed by the grammar above, normalised to canonical text. */
export const tradingHoursSchema = z
  .string()
  .max(TRADING_HOURS_MAX_LENGTH, `Trading hours must be at most ${TRADING_HOURS_MAX_LENGTH} characters`)
  .transform((spec, ctx) => {
    const parsed = parseTradingHours(spec);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    return formatTradingHours(parsed.ranges);
  });

/** A broker symbol in a white/black list: letters, digits, `.`, `_`, `#`, `-` (1–32 characters). */
export const BROKER_SYMBOL_RE = /^[A-Z0-9._#-]{1,32}$/;
export const SYMBOL_LIST_MAX = 200;

/**
 * A symbol white/black list: each entry trimmed and upper-cased (the EA compares without case),
 * checked against BROKER_SYMBOL_RE with a message naming the bad entry, duplicates dropped (first
 * kept), at most SYMBOL_LIST_MAX entries.
 */
export const symbolListSchema = z
  .array(z.string().max(64, "Symbol is too long"))
  .max(SYMBOL_LIST_MAX, `At most ${SYMBOL_LIST_MAX} symbols`)
  .transform((items, ctx) => {
    const out: string[] = [];
    for (const item of items) {
      const symbol = item.trim().toUpperCase();
      if (!BROKER_SYMBOL_RE.test(symbol)) {
        const shown = hasControlChars(item) ? JSON.stringify(item) : `"${item}"`;
        ctx.addIssue({ code: "custom", message: `${shown} is not a broker symbol (letters, digits, . _ # - only)` });
        return z.NEVER;
      }
      if (!out.includes(symbol)) out.push(symbol);
    }
    return out;
  });
