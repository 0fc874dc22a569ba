// CopyBridge harness — MQL core types (DESIGN.md §4): scalar typedefs, the UTF-16 `string`,
// dynamic arrays `MqlArray<T>`, the `_LastError` state, `MQL_INPUT` globals and the hooks the
// simulated broker (broker.h) shares with the core.
//
// Names in this file are stable: broker.h builds on them.
//   - MQL types: char uchar short ushort int uint long ulong double float bool string datetime color
//   - string: MQL string of UTF-16 code units. `string(const char *utf8)` and `string(std::string
//     utf8)` are implicit; `(string)x` of integers, doubles, floats, bools uses explicit
//     constructors. `s.utf8()` gives std::string, `s.u16()` the code units, `s.len()` their count.
//   - MqlArray<T>: MQL dynamic array (`T x[]`); `a.size()`, `a.resize(n)`, `a[i]` (range checked,
//     out of range aborts like MQL's "array out of range" critical error), `a.vec()`.
//   - Errors: `_LastError`, `MqlSetError(code)`; GetLastError/ResetLastError/SetUserError.
//   - Hooks for broker.h: `g_mqlBrokerOffsetSec` (broker server time − UTC, seconds, used by
//     TimeCurrent/TimeTradeServer), `_Symbol`, `_Digits`, `_Point` (chart symbol; broker.h sets
//     them in BrokerLoad from its first symbol), `MqlPrintLine(std::string)` (one stdout line),
//     `MqlJsonQuote(std::string)` (a JSON string literal for `@@` answers), `MqlIsMql5()`.
#pragma once

#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if !defined(__MQL5__) && !defined(__MQL4__)
#error "define exactly one of __MQL5__ or __MQL4__"
#endif
#if defined(__MQL5__) && defined(__MQL4__)
#error "define exactly one of __MQL5__ or __MQL4__"
#endif

// ---------------------------------------------------------------------------------------------
// Scalar types (https://www.mql5.com/en/docs/basis/types/integer). MQL long is 64-bit, as is
// `long` on LP64 Linux. `char` is signed (build with -fsigned-char).
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
// https://www.mql5.com/en/docs/basis/types/integer/datetime — seconds since 1970-01-01.
// A typedef of long: `(string)t` and Print(t) give digits, not "yyyy.mm.dd hh:mi:ss" (deviation).
typedef long datetime;
// https://www.mql5.com/en/docs/basis/types/integer/color
typedef uint color;

/** True when compiled as MQL5 (`-D__MQL5__`), false for MQL4. */
constexpr bool MqlIsMql5() {
#ifdef __MQL5__
  return true;
#else
  return false;
#endif
}

// ---------------------------------------------------------------------------------------------
// UTF-8 <-> UTF-16 (helpers of the runtime, not MQL built-ins).

/** Decodes UTF-8 bytes into UTF-16 code units; invalid sequences become U+FFFD. */
inline std::u16string MqlUtf8ToUtf16(const char *p, size_t n) {
  std::u16string out;
  out.reserve(n);
  size_t i = 0;
  const unsigned char *b = reinterpret_cast<const unsigned char *>(p);
  while (i < n) {
    uint32_t c = b[i];
    size_t extra = 0;
    if (c < 0x80) {
      extra = 0;
    } else if ((c & 0xE0) == 0xC0) {
      c &= 0x1F;
      extra = 1;
    } else if ((c & 0xF0) == 0xE0) {
      c &= 0x0F;
      extra = 2;
    } else if ((c & 0xF8) == 0xF0) {
      c &= 0x07;
      extra = 3;
    } else {
      out.push_back(0xFFFD);
      i++;
      continue;
    }
    bool ok = true;
    for (size_t k = 1; k <= extra; k++) {
      if (i + k >= n || (b[i + k] & 0xC0) != 0x80) {
        ok = false;
        break;
      }
      c = (c << 6) | (b[i + k] & 0x3F);
    }
    if (!ok) {
      out.push_back(0xFFFD);
      i++;
      continue;
    }
    i += extra + 1;
    if (c >= 0x10000) {
      c -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(c));
    }
  }
  return out;
}

/** Encodes UTF-16 code units as UTF-8; a lone surrogate becomes U+FFFD. */
inline std::string MqlUtf16ToUtf8(const char16_t *p, size_t n) {
  std::string out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) {
    uint32_t c = p[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (p[i + 1] - 0xDC00);
      i++;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      c = 0xFFFD;
    }
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

/** MQL's text form of a double: up to 16 significant digits, no trailing zeros ("1.5"). */
inline std::string MqlDoubleText(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.16g", v);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// string — https://www.mql5.com/en/docs/basis/types/stringconst : Unicode text of UTF-16 units.
class string {
 public:
  string() = default;
  // NOLINTNEXTLINE: implicit, literals are strings in MQL
  string(const char *utf8) {
    if (utf8 != nullptr) v_ = MqlUtf8ToUtf16(utf8, std::strlen(utf8));
  }
  string(const std::string &utf8) : v_(MqlUtf8ToUtf16(utf8.data(), utf8.size())) {}
  // Typecasting to string: https://www.mql5.com/en/docs/basis/types/casting
  explicit string(bool b) : string(b ? "true" : "false") {}
  explicit string(char n) : string(std::to_string(static_cast<int>(n))) {}
  explicit string(signed char n) : string(std::to_string(static_cast<int>(n))) {}
  explicit string(unsigned char n) : string(std::to_string(static_cast<int>(n))) {}
  explicit string(short n) : string(std::to_string(n)) {}
  explicit string(unsigned short n) : string(std::to_string(n)) {}
  explicit string(int n) : string(std::to_string(n)) {}
  explicit string(unsigned int n) : string(std::to_string(n)) {}
  explicit string(long n) : string(std::to_string(n)) {}
  explicit string(unsigned long n) : string(std::to_string(n)) {}
  explicit string(long long n) : string(std::to_string(n)) {}
  explicit string(unsigned long long n) : string(std::to_string(n)) {}
  explicit string(double d) : string(MqlDoubleText(d)) {}
  explicit string(float f) : string(MqlFloatText(f)) {}

  /** Builds a string from UTF-16 code units. */
  static string FromUtf16(std::u16string units) {
    string s;
    s.v_ = std::move(units);
    return s;
  }
  /** The text as UTF-8 (lone surrogates become U+FFFD). */
  std::string utf8() const { return MqlUtf16ToUtf8(v_.data(), v_.size()); }
  /** The UTF-16 code units. */
  const std::u16string &u16() const { return v_; }
  std::u16string &u16() { return v_; }
  /** Number of UTF-16 code units (MQL StringLen). */
  int len() const { return static_cast<int>(v_.size()); }

  string &operator+=(const string &o) {
    v_ += o.v_;
    return *this;
  }
  friend string operator+(const string &a, const string &b) {
    string r = a;
    r.v_ += b.v_;
    return r;
  }
  friend bool operator==(const string &a, const string &b) { return a.v_ == b.v_; }
  friend bool operator!=(const string &a, const string &b) { return a.v_ != b.v_; }
  friend bool operator<(const string &a, const string &b) { return a.v_ < b.v_; }
  friend bool operator>(const string &a, const string &b) { return a.v_ > b.v_; }
  friend bool operator<=(const string &a, const string &b) { return a.v_ <= b.v_; }
  friend bool operator>=(const string &a, const string &b) { return a.v_ >= b.v_; }

 private:
  static std::string MqlFloatText(float f) {
    if (std::isnan(f) || std::isinf(f)) return MqlDoubleText(f);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.7g", static_cast<double>(f));
    return buf;
  }
  std::u16string v_;
};

// ---------------------------------------------------------------------------------------------
// Errors — https://www.mql5.com/en/docs/check/getlasterror
inline int _LastError = 0;

/** Sets `_LastError` (runtime and broker.h use it for every failing built-in). */
inline void MqlSetError(int code) { _LastError = code; }

// ---------------------------------------------------------------------------------------------
// Output helpers shared with broker.h and main.cpp.

/** Writes one line (UTF-8) to stdout and flushes it. */
inline void MqlPrintLine(const std::string &line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

/** JSON string literal (RFC 8259 escaping) of a UTF-8 text, quotes included. */
inline std::string MqlJsonQuote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out += "\"";
  return out;
}

/** Reports an MQL critical runtime error (e.g. array out of range) and stops the process (exit 4). */
[[noreturn]] inline void MqlCritical(const std::string &what) {
  MqlPrintLine("critical runtime error: " + what);
  std::exit(4);
}

// ---------------------------------------------------------------------------------------------
// Dynamic arrays — https://www.mql5.com/en/docs/basis/variables#array_define
// Elements live in cells so that MqlArray<bool> hands out real bool references.
template <class T>
class MqlArray {
 public:
  MqlArray() = default;
  /** Number of elements. */
  int size() const { return static_cast<int>(cells_.size()); }
  /** Resizes to n elements (new numeric elements are zero). */
  void resize(int n) { cells_.resize(n < 0 ? 0 : static_cast<size_t>(n)); }
  void reserve(int n) {
    if (n > 0) cells_.reserve(static_cast<size_t>(n));
  }
  void clear() { cells_.clear(); }
  T &operator[](long i) {
    check(i);
    return cells_[static_cast<size_t>(i)].v;
  }
  const T &operator[](long i) const {
    check(i);
    return cells_[static_cast<size_t>(i)].v;
  }
  /** Copy of the elements as a std::vector. */
  std::vector<T> vec() const {
    std::vector<T> out;
    out.reserve(cells_.size());
    for (const Cell &c : cells_) out.push_back(c.v);
    return out;
  }
  void push_back(const T &v) { cells_.push_back(Cell{v}); }

 private:
  struct Cell {
    T v{};
  };
  void check(long i) const {
    if (i < 0 || static_cast<size_t>(i) >= cells_.size())
      MqlCritical("array out of range (index " + std::to_string(i) + ", size " + std::to_string(cells_.size()) + ")");
  }
  std::vector<Cell> cells_;
};

template <class T>
struct MqlIsByte : std::bool_constant<std::is_same_v<T, char> || std::is_same_v<T, uchar> || std::is_same_v<T, signed char>> {};

// ---------------------------------------------------------------------------------------------
// Inputs — `input T n = v;` → `MQL_INPUT(T, n, v);` (DESIGN.md §3 rule 2).

/** Registry of input globals by name: parses `--input Name=value` text into the variable. */
struct MqlInputRegistry {
  static std::map<std::string, std::function<bool(const std::string &)>> &setters() {
    static std::map<std::string, std::function<bool(const std::string &)>> m;
    return m;
  }
};

template <class T>
bool MqlParseInput(const std::string &text, T *target) {
  if constexpr (std::is_same_v<T, string>) {
    *target = string(text);
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (text == "true" || text == "1") *target = true;
    else if (text == "false" || text == "0") *target = false;
    else return false;
    return true;
  } else if constexpr (std::is_floating_point_v<T>) {
    char *end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0') return false;
    *target = static_cast<T>(d);
    return true;
  } else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
    char *end = nullptr;
    errno = 0;
    long long n = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || errno != 0) {
      errno = 0;
      unsigned long long u = std::strtoull(text.c_str(), &end, 10);
      if (end == text.c_str() || *end != '\0' || errno != 0) return false;
      n = static_cast<long long>(u);
    }
    *target = static_cast<T>(n);
    return true;
  } else {
    return false;
  }
}

/** Registers one input global under its MQL name (used by MQL_INPUT). */
struct MqlInputReg {
  template <class T>
  MqlInputReg(const char *name, T *target) {
    MqlInputRegistry::setters()[name] = [target](const std::string &text) { return MqlParseInput(text, target); };
  }
};

/** Sets input `name` from text; returns false (unknown name or bad value) with a message in `err`. */
inline bool MqlSetInput(const std::string &name, const std::string &value, std::string &err) {
  auto &m = MqlInputRegistry::setters();
  auto it = m.find(name);
  if (it == m.end()) {
    err = "unknown input " + name;
    return false;
  }
  if (!it->second(value)) {
    err = "bad value for input " + name + ": " + value;
    return false;
  }
  return true;
}

#define MQL_INPUT(T, n, ...)   \
  T n = (__VA_ARGS__);         \
  static MqlInputReg mql_input_reg_##n(#n, &n)

// ---------------------------------------------------------------------------------------------
// Hooks shared with broker.h and main.cpp.

/** Broker server time − UTC in seconds (broker.h sets it; TimeCurrent = TimeGMT + this). */
inline long g_mqlBrokerOffsetSec = 0;
/** Chart symbol and its digits/point (broker.h sets them in BrokerLoad from its first symbol). */
inline string _Symbol = "EURUSD";
inline int _Digits = 5;
inline double _Point = 0.00001;
/** Set by SIGTERM/SIGINT/quit; IsStopped() reads it. */
inline volatile std::sig_atomic_t g_mqlStopRequested = 0;
/**
 * The terminal's own work while the EA's thread is blocked (in WebRequest or Sleep): MetaTrader
 * keeps its book and manual trading going then, so the harness answers control commands of the
 * broker from here. Set by main.cpp; called at most every 20 ms during a blocking wait.
 */
inline void (*g_mqlTerminalIdle)() = nullptr;
/** Set by ExpertRemove(). */
inline bool g_mqlExpertRemoved = false;
/** Reason passed to OnDeinit (UninitializeReason()). */
inline int g_mqlUninitReason = 0;
