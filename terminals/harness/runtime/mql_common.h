// CopyBridge harness — common built-ins: errors, output, time, math, timers, terminal info.
#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>
#include <thread>

#include "mql_constants.h"

// ---------------------------------------------------------------------------------------------
// Process settings filled by main.cpp from the command line.

/** Files sandbox (`--files DIR`): FileOpen names resolve under it, FILE_COMMON under DIR/../Common/Files. */
inline std::string g_mqlFilesDir = "Files";
/** URL prefixes WebRequest may call (`--allow-url`, repeatable). */
inline std::vector<std::string> g_mqlAllowUrls;
/** Program name (the EA file name without extension). */
inline std::string g_mqlProgramName = "EA";
/** Last text given to Comment() (answered by the `status` command). */
inline string g_mqlComment;
/** Timer period in ms (0 = no timer) and the monotonic ms when it is next due. */
inline long g_mqlTimerPeriodMs = 0;
inline long g_mqlTimerDueMs = 0;

/** Monotonic milliseconds (CLOCK_MONOTONIC). */
inline long MqlMonotonicMs() {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// ---------------------------------------------------------------------------------------------
// Errors

// https://www.mql5.com/en/docs/check/getlasterror — MQL5 keeps _LastError;
// https://docs.mql4.com/check/GetLastError — MQL4 resets it after the call.
inline int GetLastError() {
  int e = _LastError;
#ifdef __MQL4__
  _LastError = 0;
#endif
  return e;
}
// https://www.mql5.com/en/docs/common/resetlasterror
inline void ResetLastError() { _LastError = 0; }
// https://www.mql5.com/en/docs/common/setusererror — _LastError = ERR_USER_ERROR_FIRST + code.
inline void SetUserError(ushort user_error) { _LastError = ERR_USER_ERROR_FIRST + user_error; }

// ---------------------------------------------------------------------------------------------
// Text of Print/Comment/Alert arguments — https://www.mql5.com/en/docs/common/print
// (double: up to 16 significant digits; float: 5 digits after the point; bool: true/false).
inline std::string MqlArgText(const string &s) { return s.utf8(); }
inline std::string MqlArgText(const char *s) { return s == nullptr ? std::string() : std::string(s); }
inline std::string MqlArgText(const std::string &s) { return s; }
inline std::string MqlArgText(bool b) { return b ? "true" : "false"; }
inline std::string MqlArgText(double d) { return MqlDoubleText(d); }
inline std::string MqlArgText(float f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.5f", static_cast<double>(f));
  return buf;
}
template <class T, std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>, int> = 0>
std::string MqlArgText(T v) {
  if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<long long>(v));
  } else if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char>) {
    return std::to_string(static_cast<int>(v));
  } else if constexpr (std::is_same_v<T, unsigned char>) {
    return std::to_string(static_cast<unsigned>(v));
  } else {
    return std::to_string(v);
  }
}
template <class... A>
std::string MqlJoinArgs(const A &...args) {
  std::string out;
  ((out += MqlArgText(args)), ...);
  return out;
}

// https://www.mql5.com/en/docs/common/print — one line to stdout (the Experts log).
template <class... A>
void Print(const A &...args) {
  MqlPrintLine(MqlJoinArgs(args...));
}
// https://www.mql5.com/en/docs/common/comment — keeps the text (answered by `status`).
template <class... A>
void Comment(const A &...args) {
  g_mqlComment = string(MqlJoinArgs(args...));
}
// https://www.mql5.com/en/docs/common/alert — printed as "Alert: <text>".
template <class... A>
void Alert(const A &...args) {
  MqlPrintLine("Alert: " + MqlJoinArgs(args...));
}

// ---------------------------------------------------------------------------------------------
// Program state

// https://www.mql5.com/en/docs/check/isstopped — true after SIGTERM, `quit` or ExpertRemove().
inline bool IsStopped() { return g_mqlStopRequested != 0 || g_mqlExpertRemoved; }
// https://www.mql5.com/en/docs/common/expertremove — the loop ends after the current handler,
// then OnDeinit(REASON_REMOVE).
inline void ExpertRemove() { g_mqlExpertRemoved = true; }
// https://www.mql5.com/en/docs/check/uninitializereason
inline int UninitializeReason() { return g_mqlUninitReason; }

// https://www.mql5.com/en/docs/common/sleep — blocks the EA (in 10 ms slices, ends early when stopped).
inline void Sleep(int milliseconds) {
  long end = MqlMonotonicMs() + (milliseconds < 0 ? 0 : milliseconds);
  while (g_mqlStopRequested == 0) {
    long left = end - MqlMonotonicMs();
    if (left <= 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(left < 10 ? left : 10));
    if (g_mqlTerminalIdle != nullptr) g_mqlTerminalIdle();
  }
}

// https://www.mql5.com/en/docs/eventfunctions/eventsettimer — one timer per program, seconds.
inline bool EventSetTimer(int seconds) {
  if (seconds <= 0) {
    MqlSetError(MqlErrParam());
    return false;
  }
  g_mqlTimerPeriodMs = static_cast<long>(seconds) * 1000;
  g_mqlTimerDueMs = MqlMonotonicMs() + g_mqlTimerPeriodMs;
  return true;
}
// https://www.mql5.com/en/docs/eventfunctions/eventsetmillisecondtimer
inline bool EventSetMillisecondTimer(int milliseconds) {
  if (milliseconds <= 0) {
    MqlSetError(MqlErrParam());
    return false;
  }
  g_mqlTimerPeriodMs = milliseconds;
  g_mqlTimerDueMs = MqlMonotonicMs() + g_mqlTimerPeriodMs;
  return true;
}
// https://www.mql5.com/en/docs/eventfunctions/eventkilltimer
inline void EventKillTimer() { g_mqlTimerPeriodMs = 0; }

// https://www.mql5.com/en/docs/common/gettickcount — ms since system start (uint, wraps).
inline uint GetTickCount() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint>(static_cast<unsigned long>(ts.tv_sec) * 1000UL + static_cast<unsigned long>(ts.tv_nsec / 1000000));
}
inline const std::chrono::steady_clock::time_point g_mqlStartTime = std::chrono::steady_clock::now();
// https://www.mql5.com/en/docs/common/getmicrosecondcount — µs since the program started.
inline ulong GetMicrosecondCount() {
  return static_cast<ulong>(std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - g_mqlStartTime).count());
}

// ---------------------------------------------------------------------------------------------
// Time

// https://www.mql5.com/en/docs/dateandtime/timegmt — UTC from the system clock.
inline datetime TimeGMT() { return static_cast<datetime>(std::time(nullptr)); }
// https://www.mql5.com/en/docs/dateandtime/timelocal — the PC's local time.
inline datetime TimeLocal() {
  std::time_t now = std::time(nullptr);
  std::tm lt{};
  localtime_r(&now, &lt);
  return static_cast<datetime>(now + lt.tm_gmtoff);
}
// https://www.mql5.com/en/docs/dateandtime/timecurrent — server time: TimeGMT + broker offset
// (the harness does not freeze it between quotes).
inline datetime TimeCurrent() { return TimeGMT() + g_mqlBrokerOffsetSec; }
// https://www.mql5.com/en/docs/dateandtime/timetradeserver
inline datetime TimeTradeServer() { return TimeGMT() + g_mqlBrokerOffsetSec; }

// https://www.mql5.com/en/docs/convert/timetostring — "yyyy.mm.dd hh:mi[:ss]".
inline string TimeToString(datetime value, int mode = TIME_DATE | TIME_MINUTES) {
  std::time_t t = static_cast<std::time_t>(value);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::string out;
  if (mode & TIME_DATE) {
    std::snprintf(buf, sizeof buf, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    out += buf;
  }
  if (mode & (TIME_MINUTES | TIME_SECONDS)) {
    if (!out.empty()) out += " ";
    if (mode & TIME_SECONDS) std::snprintf(buf, sizeof buf, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
    else std::snprintf(buf, sizeof buf, "%02d:%02d", tm.tm_hour, tm.tm_min);
    out += buf;
  }
  return string(out);
}

// ---------------------------------------------------------------------------------------------
// Math — https://www.mql5.com/en/docs/math

// https://www.mql5.com/en/docs/math/mathabs — same type as the argument.
template <class T>
T MathAbs(T v) {
  return v < 0 ? static_cast<T>(-v) : v;
}
// https://www.mql5.com/en/docs/math/mathfloor
inline double MathFloor(double v) { return std::floor(v); }
// https://www.mql5.com/en/docs/math/mathceil
inline double MathCeil(double v) { return std::ceil(v); }
// https://www.mql5.com/en/docs/math/mathround — half away from zero.
inline double MathRound(double v) { return std::round(v); }
// https://www.mql5.com/en/docs/math/mathpow
inline double MathPow(double base, double exponent) { return std::pow(base, exponent); }
// https://www.mql5.com/en/docs/math/mathmin
template <class A, class B>
std::common_type_t<A, B> MathMin(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(a) : static_cast<C>(b);
}
// https://www.mql5.com/en/docs/math/mathmax
template <class A, class B>
std::common_type_t<A, B> MathMax(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(a) > static_cast<C>(b) ? static_cast<C>(a) : static_cast<C>(b);
}
inline std::minstd_rand &MqlRng() {
  static std::minstd_rand rng(1);
  return rng;
}
// https://www.mql5.com/en/docs/math/mathrand — 0…32767.
inline int MathRand() { return static_cast<int>(MqlRng()() % 32768U); }
// https://www.mql5.com/en/docs/math/mathsrand
inline void MathSrand(uint seed) { MqlRng().seed(seed == 0 ? 1 : seed); }
// https://www.mql5.com/en/docs/math/mathisvalidnumber — false for NaN and ±inf.
inline bool MathIsValidNumber(double v) { return std::isfinite(v); }
// https://www.mql5.com/en/docs/convert/normalizedouble — round to `digits` (0…8) decimals.
inline double NormalizeDouble(double value, int digits) {
  if (digits < 0) digits = 0;
  if (digits > 8) digits = 8;
  double p = std::pow(10.0, digits);
  return std::round(value * p) / p;
}
// https://www.mql5.com/en/docs/common/zeromemory — resets a variable (struct: every member).
template <class T>
void ZeroMemory(T &v) {
  v = T();
}

// ---------------------------------------------------------------------------------------------
// Terminal and program info

// https://www.mql5.com/en/docs/check/terminalinfointeger — the harness terminal is connected
// and allows trading.
inline long TerminalInfoInteger(int property_id) {
  switch (property_id) {
    case TERMINAL_CONNECTED: return 1;
    case TERMINAL_TRADE_ALLOWED: return 1;
    case TERMINAL_DLLS_ALLOWED: return 0;
    case TERMINAL_BUILD: return MqlIsMql5() ? 4410 : 1420;
    case TERMINAL_PING_LAST: return 1000;
    default: MqlSetError(MqlErrParam()); return 0;
  }
}
inline std::string MqlAbsPath(const std::string &p) {
  char *r = realpath(p.c_str(), nullptr);
  if (r == nullptr) return p;
  std::string out(r);
  std::free(r);
  return out;
}
// https://www.mql5.com/en/docs/check/terminalinfostring — TERMINAL_DATA_PATH is the folder
// holding MQL5/Files (MQL4/Files): two levels above `--files`.
inline string TerminalInfoString(int property_id) {
  std::string files = MqlAbsPath(g_mqlFilesDir);
  auto up = [](const std::string &p) {
    size_t k = p.find_last_of('/');
    return k == std::string::npos || k == 0 ? p : p.substr(0, k);
  };
  switch (property_id) {
    case TERMINAL_DATA_PATH: return string(up(up(files)));
    case TERMINAL_COMMONDATA_PATH: return string(up(files) + "/../Common");
    case TERMINAL_PATH: return string(up(up(files)));
    case TERMINAL_NAME: return MqlIsMql5() ? string("MetaTrader 5 (harness)") : string("MetaTrader 4 (harness)");
    case TERMINAL_COMPANY: return string("CopyBridge harness");
    case TERMINAL_LANGUAGE: return string("English");
    default: MqlSetError(MqlErrParam()); return string();
  }
}
// https://www.mql5.com/en/docs/check/mqlinfointeger — trading allowed for the EA.
inline long MQLInfoInteger(int property_id) {
  switch (property_id) {
    case MQL_TRADE_ALLOWED: return 1;
    case MQL_PROGRAM_TYPE: return 2;  // PROGRAM_EXPERT
    case MQL_DLLS_ALLOWED:
    case MQL_TESTER:
    case MQL_OPTIMIZATION:
    case MQL_VISUAL_MODE: return 0;
    default: MqlSetError(MqlErrParam()); return 0;
  }
}
