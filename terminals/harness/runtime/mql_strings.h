// CopyBridge harness — string functions, conversions, StringFormat, char arrays, array functions.
#pragma once

#include "mql_common.h"

// ---------------------------------------------------------------------------------------------
// Array functions — https://www.mql5.com/en/docs/array

// https://www.mql5.com/en/docs/array/arrayresize — returns the new size, -1 on error.
template <class T>
int ArrayResize(MqlArray<T> &array, int new_size, int reserve_size = 0) {
  if (new_size < 0) {
    MqlSetError(MqlErrParam());
    return -1;
  }
  if (reserve_size > 0) array.reserve(new_size + reserve_size);
  array.resize(new_size);
  return array.size();
}
// https://www.mql5.com/en/docs/array/arraysize
template <class T>
int ArraySize(const MqlArray<T> &array) {
  return array.size();
}
// https://www.mql5.com/en/docs/array/arrayfree
template <class T>
void ArrayFree(MqlArray<T> &array) {
  array.clear();
}
// https://www.mql5.com/en/docs/array/arraycopy — returns the number of copied elements; the
// dynamic receiver grows when needed.
template <class T, class U>
int ArrayCopy(MqlArray<T> &dst_array, const MqlArray<U> &src_array, int dst_start = 0, int src_start = 0, int count = WHOLE_ARRAY) {
  int srcSize = src_array.size();
  if (src_start < 0 || dst_start < 0 || src_start > srcSize) {
    MqlSetError(MqlErrParam());
    return 0;
  }
  int n = srcSize - src_start;
  if (count >= 0 && count < n) n = count;
  if (dst_array.size() < dst_start + n) dst_array.resize(dst_start + n);
  if constexpr (std::is_same_v<T, U>) {
    std::vector<T> tmp;
    tmp.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; i++) tmp.push_back(src_array[src_start + i]);
    for (int i = 0; i < n; i++) dst_array[dst_start + i] = tmp[static_cast<size_t>(i)];
  } else {
    for (int i = 0; i < n; i++) dst_array[dst_start + i] = static_cast<T>(src_array[src_start + i]);
  }
  return n;
}
// https://www.mql5.com/en/docs/array/arrayinitialize — returns the number of elements set.
template <class T, class V>
int ArrayInitialize(MqlArray<T> &array, V value) {
  for (int i = 0; i < array.size(); i++) array[i] = static_cast<T>(value);
  return array.size();
}

// ---------------------------------------------------------------------------------------------
// Strings — https://www.mql5.com/en/docs/strings

// https://www.mql5.com/en/docs/strings/stringlen — number of UTF-16 code units.
inline int StringLen(const string &s) { return s.len(); }

// https://www.mql5.com/en/docs/strings/stringsubstr — length -1: to the end.
inline string StringSubstr(const string &s, int start, int length = -1) {
  const std::u16string &u = s.u16();
  if (start < 0 || static_cast<size_t>(start) >= u.size()) return string();
  size_t n = length < 0 ? std::u16string::npos : static_cast<size_t>(length);
  return string::FromUtf16(u.substr(static_cast<size_t>(start), n));
}

// https://www.mql5.com/en/docs/strings/stringfind — index of the first match at or after start, or -1.
inline int StringFind(const string &s, const string &match, int start = 0) {
  if (start < 0) start = 0;
  if (match.len() == 0 || static_cast<size_t>(start) > s.u16().size()) return -1;
  size_t k = s.u16().find(match.u16(), static_cast<size_t>(start));
  return k == std::u16string::npos ? -1 : static_cast<int>(k);
}

// https://www.mql5.com/en/docs/strings/stringreplace — number of replacements, -1 on error.
inline int StringReplace(string &str, const string &find, const string &replacement) {
  if (find.len() == 0) {
    MqlSetError(MqlErrParam());
    return -1;
  }
  std::u16string &u = str.u16();
  std::u16string out;
  int count = 0;
  size_t pos = 0;
  while (true) {
    size_t k = u.find(find.u16(), pos);
    if (k == std::u16string::npos) break;
    out.append(u, pos, k - pos);
    out += replacement.u16();
    pos = k + find.u16().size();
    count++;
  }
  out.append(u, pos, std::u16string::npos);
  u = out;
  return count;
}

// https://www.mql5.com/en/docs/strings/stringsplit — number of substrings (0 for an empty
// string); consecutive separators give empty substrings.
inline int StringSplit(const string &text, ushort separator, MqlArray<string> &result) {
  result.clear();
  const std::u16string &u = text.u16();
  if (u.empty()) return 0;
  size_t pos = 0;
  while (true) {
    size_t k = u.find(static_cast<char16_t>(separator), pos);
    if (k == std::u16string::npos) {
      result.push_back(string::FromUtf16(u.substr(pos)));
      break;
    }
    result.push_back(string::FromUtf16(u.substr(pos, k - pos)));
    pos = k + 1;
  }
  return result.size();
}

inline char16_t MqlUpper(char16_t c) {
  if (c >= u'a' && c <= u'z') return static_cast<char16_t>(c - 32);
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7)) return static_cast<char16_t>(c - 32);
  if (c >= 0x430 && c <= 0x44F) return static_cast<char16_t>(c - 32);
  return c;
}
inline char16_t MqlLower(char16_t c) {
  if (c >= u'A' && c <= u'Z') return static_cast<char16_t>(c + 32);
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return static_cast<char16_t>(c + 32);
  if (c >= 0x410 && c <= 0x42F) return static_cast<char16_t>(c + 32);
  return c;
}
// https://www.mql5.com/en/docs/strings/stringtoupper — in place.
inline bool StringToUpper(string &s) {
  for (char16_t &c : s.u16()) c = MqlUpper(c);
  return true;
}
// https://www.mql5.com/en/docs/strings/stringtolower — in place.
inline bool StringToLower(string &s) {
  for (char16_t &c : s.u16()) c = MqlLower(c);
  return true;
}

inline bool MqlIsTrimSpace(char16_t c) { return c == u' ' || c == u'\t' || c == u'\r' || c == u'\n'; }
#ifdef __MQL5__
// https://www.mql5.com/en/docs/strings/stringtrimleft — in place, returns the number of removed units.
inline int StringTrimLeft(string &s) {
  std::u16string &u = s.u16();
  size_t k = 0;
  while (k < u.size() && MqlIsTrimSpace(u[k])) k++;
  u.erase(0, k);
  return static_cast<int>(k);
}
// https://www.mql5.com/en/docs/strings/stringtrimright — in place, returns the number of removed units.
inline int StringTrimRight(string &s) {
  std::u16string &u = s.u16();
  size_t k = u.size();
  while (k > 0 && MqlIsTrimSpace(u[k - 1])) k--;
  int removed = static_cast<int>(u.size() - k);
  u.erase(k);
  return removed;
}
#else
// https://docs.mql4.com/strings/stringtrimleft — returns the trimmed copy.
inline string StringTrimLeft(const string &s) {
  const std::u16string &u = s.u16();
  size_t k = 0;
  while (k < u.size() && MqlIsTrimSpace(u[k])) k++;
  return string::FromUtf16(u.substr(k));
}
// https://docs.mql4.com/strings/stringtrimright — returns the trimmed copy.
inline string StringTrimRight(const string &s) {
  const std::u16string &u = s.u16();
  size_t k = u.size();
  while (k > 0 && MqlIsTrimSpace(u[k - 1])) k--;
  return string::FromUtf16(u.substr(0, k));
}
#endif

// https://www.mql5.com/en/docs/strings/stringgetcharacter — the code unit at pos (0 when out of range).
inline ushort StringGetCharacter(const string &s, int pos) {
  if (pos < 0 || pos >= s.len()) {
    MqlSetError(MqlErrParam());
    return 0;
  }
  return s.u16()[static_cast<size_t>(pos)];
}
// https://www.mql5.com/en/docs/strings/stringsetcharacter — pos == length appends; code 0 cuts.
inline bool StringSetCharacter(string &s, int pos, ushort character) {
  std::u16string &u = s.u16();
  if (pos < 0 || static_cast<size_t>(pos) > u.size()) {
    MqlSetError(MqlErrParam());
    return false;
  }
  if (character == 0) {
    u.erase(static_cast<size_t>(pos));
    return true;
  }
  if (static_cast<size_t>(pos) == u.size()) u.push_back(character);
  else u[static_cast<size_t>(pos)] = character;
  return true;
}

// https://www.mql5.com/en/docs/strings/stringcompare — -1, 0 or 1 (by code units).
inline int StringCompare(const string &string1, const string &string2, bool case_sensitive = true) {
  std::u16string a = string1.u16();
  std::u16string b = string2.u16();
  if (!case_sensitive) {
    for (char16_t &c : a) c = MqlUpper(c);
    for (char16_t &c : b) c = MqlUpper(c);
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Conversions — https://www.mql5.com/en/docs/convert

// https://www.mql5.com/en/docs/convert/stringtointeger — leading integer, 0 when none.
inline long StringToInteger(const string &value) { return std::strtol(value.utf8().c_str(), nullptr, 10); }
// https://www.mql5.com/en/docs/convert/stringtodouble — leading number, 0 when none.
inline double StringToDouble(const string &value) { return std::strtod(value.utf8().c_str(), nullptr); }
// https://www.mql5.com/en/docs/convert/integertostring — padded on the left to str_len with fill_symbol.
inline string IntegerToString(long number, int str_len = 0, ushort fill_symbol = ' ') {
  std::u16string digits = string(std::to_string(number)).u16();
  if (str_len > 0 && digits.size() < static_cast<size_t>(str_len))
    digits.insert(0, static_cast<size_t>(str_len) - digits.size(), static_cast<char16_t>(fill_symbol));
  return string::FromUtf16(digits);
}
// https://www.mql5.com/en/docs/convert/doubletostring — 0…16 fixed decimals, -1…-16 scientific,
// anything else 8 decimals.
inline string DoubleToString(double value, int digits = 8) {
  char buf[512];
  if (digits >= 0 && digits <= 16) std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  else if (digits <= -1 && digits >= -16) std::snprintf(buf, sizeof buf, "%.*e", -digits, value);
  else std::snprintf(buf, sizeof buf, "%.8f", value);
  return string(buf);
}
// https://www.mql5.com/en/docs/convert/chartostring — one character of the code.
inline string CharToString(uchar char_code) { return string::FromUtf16(std::u16string(1, static_cast<char16_t>(char_code))); }
// https://www.mql5.com/en/docs/convert/shorttostring — one UTF-16 unit.
inline string ShortToString(ushort symbol_code) { return string::FromUtf16(std::u16string(1, static_cast<char16_t>(symbol_code))); }

/** Bytes of a string in a code page: CP_UTF8 encodes UTF-8, anything else one byte per unit (Latin-1, '?' beyond). */
inline std::string MqlEncode(const string &s, uint codepage) {
  if (codepage == CP_UTF8) return s.utf8();
  std::string out;
  out.reserve(s.u16().size());
  for (char16_t c : s.u16()) out.push_back(c < 256 ? static_cast<char>(c) : '?');
  return out;
}
/** Text of bytes in a code page (CP_UTF8 decodes UTF-8, anything else Latin-1). */
inline string MqlDecode(const char *p, size_t n, uint codepage) {
  if (codepage == CP_UTF8) return string::FromUtf16(MqlUtf8ToUtf16(p, n));
  std::u16string u;
  u.reserve(n);
  for (size_t i = 0; i < n; i++) u.push_back(static_cast<unsigned char>(p[i]));
  return string::FromUtf16(u);
}

// https://www.mql5.com/en/docs/convert/stringtochararray — copies the text's bytes in the code
// page INCLUDING the terminating zero unless `count` stops earlier; the dynamic array grows to
// start+copied when shorter and is never reduced (stale bytes past the copy stay); returns the
// number copied. Accepts char[] and uchar[] like MetaEditor.
template <class C, std::enable_if_t<MqlIsByte<C>::value, int> = 0>
int StringToCharArray(const string &text_string, MqlArray<C> &array, int start = 0, int count = -1, uint codepage = CP_ACP) {
  if (start < 0) {
    MqlSetError(MqlErrParam());
    return 0;
  }
  std::string bytes = MqlEncode(text_string, codepage);
  bytes.push_back('\0');
  size_t n = bytes.size();
  if (count >= 0 && static_cast<size_t>(count) < n) n = static_cast<size_t>(count);
  if (array.size() < start + static_cast<int>(n)) array.resize(start + static_cast<int>(n));
  for (size_t i = 0; i < n; i++) array[start + static_cast<long>(i)] = static_cast<C>(bytes[i]);
  return static_cast<int>(n);
}
// https://www.mql5.com/en/docs/convert/chararraytostring — decodes from `start`, `count` bytes
// (-1: to the end), stopping at the first zero.
template <class C, std::enable_if_t<MqlIsByte<C>::value, int> = 0>
string CharArrayToString(const MqlArray<C> &array, int start = 0, int count = -1, uint codepage = CP_ACP) {
  int size = array.size();
  if (start < 0 || start > size) return string();
  int end = count < 0 ? size : std::min(size, start + count);
  std::string bytes;
  for (int i = start; i < end; i++) {
    char b = static_cast<char>(array[i]);
    if (b == '\0') break;
    bytes.push_back(b);
  }
  return MqlDecode(bytes.data(), bytes.size(), codepage);
}

// ---------------------------------------------------------------------------------------------
// StringFormat — https://www.mql5.com/en/docs/convert/stringformat (printf specifiers; %s takes
// MQL strings; I64/l/ll/h size prefixes accepted; %c takes a UTF-16 code).
struct MqlFmtArg {
  enum Kind { I, U, D, S } kind = I;
  long long i = 0;
  unsigned long long u = 0;
  double d = 0;
  std::string s;
  long long asInt() const { return kind == I ? i : kind == U ? static_cast<long long>(u) : kind == D ? static_cast<long long>(d) : 0; }
  unsigned long long asUInt() const { return kind == U ? u : static_cast<unsigned long long>(asInt()); }
  double asDouble() const { return kind == D ? d : kind == U ? static_cast<double>(u) : kind == I ? static_cast<double>(i) : 0.0; }
  std::string asText() const {
    switch (kind) {
      case I: return std::to_string(i);
      case U: return std::to_string(u);
      case D: return MqlDoubleText(d);
      case S: return s;
    }
    return s;
  }
};
inline MqlFmtArg MqlToFmtArg(const string &v) { MqlFmtArg a; a.kind = MqlFmtArg::S; a.s = v.utf8(); return a; }
inline MqlFmtArg MqlToFmtArg(const char *v) { MqlFmtArg a; a.kind = MqlFmtArg::S; a.s = v == nullptr ? "" : v; return a; }
inline MqlFmtArg MqlToFmtArg(const std::string &v) { MqlFmtArg a; a.kind = MqlFmtArg::S; a.s = v; return a; }
inline MqlFmtArg MqlToFmtArg(double v) { MqlFmtArg a; a.kind = MqlFmtArg::D; a.d = v; return a; }
inline MqlFmtArg MqlToFmtArg(float v) { MqlFmtArg a; a.kind = MqlFmtArg::D; a.d = v; return a; }
template <class T, std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>, int> = 0>
MqlFmtArg MqlToFmtArg(T v) {
  MqlFmtArg a;
  if constexpr (std::is_enum_v<T>) {
    a.kind = MqlFmtArg::I;
    a.i = static_cast<long long>(v);
  } else if constexpr (std::is_unsigned_v<T>) {
    a.kind = MqlFmtArg::U;
    a.u = v;
  } else {
    a.kind = MqlFmtArg::I;
    a.i = v;
  }
  return a;
}

/** Formats `fmt` (UTF-8) with the arguments, printf-style; missing arguments format as nothing. */
inline std::string MqlFormat(const std::string &fmt, const std::vector<MqlFmtArg> &args) {
  std::string out;
  size_t ai = 0;
  auto next = [&]() -> const MqlFmtArg * { return ai < args.size() ? &args[ai++] : nullptr; };
  for (size_t i = 0; i < fmt.size(); i++) {
    char c = fmt[i];
    if (c != '%') {
      out.push_back(c);
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out.push_back('%');
      i++;
      continue;
    }
    std::string spec = "%";
    const size_t specStart = i;
    size_t j = i + 1;
    while (j < fmt.size() && std::strchr("-+ 0#", fmt[j]) != nullptr) spec.push_back(fmt[j++]);
    if (j < fmt.size() && fmt[j] == '*') {
      const MqlFmtArg *w = next();
      spec += std::to_string(w != nullptr ? w->asInt() : 0);
      j++;
    } else {
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) spec.push_back(fmt[j++]);
    }
    if (j < fmt.size() && fmt[j] == '.') {
      spec.push_back('.');
      j++;
      if (j < fmt.size() && fmt[j] == '*') {
        const MqlFmtArg *p = next();
        spec += std::to_string(p != nullptr ? p->asInt() : 0);
        j++;
      } else {
        while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) spec.push_back(fmt[j++]);
      }
    }
    // size prefixes: h hh l ll L q z j t I I32 I64
    while (j < fmt.size()) {
      if (fmt.compare(j, 3, "I64") == 0 || fmt.compare(j, 3, "I32") == 0) j += 3;
      else if (std::strchr("hlLqzjtI", fmt[j]) != nullptr) j++;
      else break;
    }
    if (j >= fmt.size()) {
      out += fmt.substr(i);
      break;
    }
    char conv = fmt[j];
    i = j;
    const MqlFmtArg *a = next();
    char buf[1024];
    switch (conv) {
      case 'd':
      case 'i': {
        std::string f = spec + "lld";
        std::snprintf(buf, sizeof buf, f.c_str(), a != nullptr ? a->asInt() : 0LL);
        out += buf;
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        std::string f = spec + "ll" + conv;
        std::snprintf(buf, sizeof buf, f.c_str(), a != nullptr ? a->asUInt() : 0ULL);
        out += buf;
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        std::string f = spec + conv;
        std::snprintf(buf, sizeof buf, f.c_str(), a != nullptr ? a->asDouble() : 0.0);
        out += buf;
        break;
      }
      case 'c':
      case 'C': {
        char16_t u = static_cast<char16_t>(a != nullptr ? a->asInt() : 0);
        out += MqlUtf16ToUtf8(&u, 1);
        break;
      }
      case 's':
      case 'S': {
        std::string text = a != nullptr ? a->asText() : "";
        std::string f = spec + "s";
        int n = std::snprintf(nullptr, 0, f.c_str(), text.c_str());
        std::vector<char> big(static_cast<size_t>(n) + 1);
        std::snprintf(big.data(), big.size(), f.c_str(), text.c_str());
        out += big.data();
        break;
      }
      default:
        out += fmt.substr(specStart, j + 1 - specStart);
    }
  }
  return out;
}

// https://www.mql5.com/en/docs/convert/stringformat
template <class... A>
string StringFormat(const string &format, const A &...args) {
  return string(MqlFormat(format.utf8(), std::vector<MqlFmtArg>{MqlToFmtArg(args)...}));
}
// https://www.mql5.com/en/docs/common/printformat — StringFormat, then Print.
template <class... A>
void PrintFormat(const string &format, const A &...args) {
  MqlPrintLine(MqlFormat(format.utf8(), std::vector<MqlFmtArg>{MqlToFmtArg(args)...}));
}
