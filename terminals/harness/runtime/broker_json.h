// Simulated broker — tiny JSON reader and writer (std types only), used for broker.json, the
// persisted book (stateFile) and the control channel's `@@` answers.
// Numbers keep their source text so 64-bit tickets survive (they are written as strings anyway).
#pragma once

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cbsim {

/** One parsed JSON value. Objects keep their keys sorted (order is irrelevant here). */
struct JVal {
  enum Kind { Null, Bool, Num, Str, Arr, Obj };
  Kind kind = Null;
  bool b = false;
  std::string text;  // Num: source text; Str: decoded UTF-8
  std::vector<JVal> arr;
  std::map<std::string, JVal> obj;

  /** Member lookup; nullptr when absent or when this is not an object. */
  const JVal *get(const std::string &key) const {
    if (kind != Obj) return nullptr;
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &it->second;
  }
  /** Number (or numeric string) value of member `key`, `def` when absent or null. */
  double num(const std::string &key, double def = 0) const {
    const JVal *v = get(key);
    if (!v || (v->kind != Num && v->kind != Str) || v->text.empty()) return def;
    return std::strtod(v->text.c_str(), nullptr);
  }
  /** Integer (or numeric string) value of member `key`, `def` when absent. */
  long long integer(const std::string &key, long long def = 0) const {
    const JVal *v = get(key);
    if (!v || (v->kind != Num && v->kind != Str) || v->text.empty()) return def;
    if (v->text.find_first_of(".eE") != std::string::npos) return (long long)std::llround(std::strtod(v->text.c_str(), nullptr));
    return std::strtoll(v->text.c_str(), nullptr, 10);
  }
  /** Unsigned 64-bit value (tickets) of member `key`, number or string. */
  uint64_t u64(const std::string &key, uint64_t def = 0) const {
    const JVal *v = get(key);
    if (!v || (v->kind != Num && v->kind != Str) || v->text.empty()) return def;
    return std::strtoull(v->text.c_str(), nullptr, 10);
  }
  /** String value of member `key` (numbers give their text), `def` when absent. */
  std::string str(const std::string &key, const std::string &def = "") const {
    const JVal *v = get(key);
    if (!v || (v->kind != Str && v->kind != Num)) return def;
    return v->text;
  }
  /** Boolean member, `def` when absent or not a boolean. */
  bool boolean(const std::string &key, bool def = false) const {
    const JVal *v = get(key);
    if (!v || v->kind != Bool) return def;
    return v->b;
  }
};

/** Recursive-descent parser (RFC 8259 subset sufficient for config/state). Throws std::runtime_error. */
class JParser {
 public:
  explicit JParser(const std::string &s) : s_(s) {}
  JVal parse() {
    JVal v = value();
    ws();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  const std::string &s_;
  size_t i_ = 0;
  [[noreturn]] void fail(const char *what) { throw std::runtime_error(std::string("JSON: ") + what + " at offset " + std::to_string(i_)); }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) i_++;
  }
  bool lit(const char *w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(i_, n, w) == 0) {
      i_ += n;
      return true;
    }
    return false;
  }
  static void utf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) out += (char)cp;
    else if (cp < 0x800) { out += (char)(0xC0 | (cp >> 6)); out += (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += (char)(0xE0 | (cp >> 12)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
    else { out += (char)(0xF0 | (cp >> 18)); out += (char)(0x80 | ((cp >> 12) & 0x3F)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
  }
  uint32_t hex4() {
    if (i_ + 4 > s_.size()) fail("bad \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
      else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  }
  std::string string() {
    std::string out;
    i_++;  // opening quote
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') break;
      if (c != '\\') { out += c; continue; }
      if (i_ >= s_.size()) fail("bad escape");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            uint32_t lo = hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
    return out;
  }
  JVal value() {
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    JVal v;
    char c = s_[i_];
    if (c == '{') {
      v.kind = JVal::Obj;
      i_++;
      ws();
      if (i_ < s_.size() && s_[i_] == '}') { i_++; return v; }
      while (true) {
        ws();
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected key");
        std::string k = string();
        ws();
        if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':'");
        i_++;
        v.obj[k] = value();
        ws();
        if (i_ < s_.size() && s_[i_] == ',') { i_++; continue; }
        if (i_ < s_.size() && s_[i_] == '}') { i_++; break; }
        fail("expected ',' or '}'");
      }
    } else if (c == '[') {
      v.kind = JVal::Arr;
      i_++;
      ws();
      if (i_ < s_.size() && s_[i_] == ']') { i_++; return v; }
      while (true) {
        v.arr.push_back(value());
        ws();
        if (i_ < s_.size() && s_[i_] == ',') { i_++; continue; }
        if (i_ < s_.size() && s_[i_] == ']') { i_++; break; }
        fail("expected ',' or ']'");
      }
    } else if (c == '"') {
      v.kind = JVal::Str;
      v.text = string();
    } else if (lit("true")) { v.kind = JVal::Bool; v.b = true; }
    else if (lit("false")) { v.kind = JVal::Bool; v.b = false; }
    else if (lit("null")) { v.kind = JVal::Null; }
    else {
      size_t st = i_;
      while (i_ < s_.size() && (std::isdigit((unsigned char)s_[i_]) || s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) i_++;
      if (st == i_) fail("unexpected character");
      v.kind = JVal::Num;
      v.text = s_.substr(st, i_ - st);
    }
    return v;
  }
};

/** JSON string literal (with quotes) of a UTF-8 string, escaped per RFC 8259. */
inline std::string jstr(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else o += (char)c;
    }
  }
  return o + "\"";
}

/** Shortest text that reads back as exactly the same double (for the state file). */
inline std::string jnum(double v) {
  if (!std::isfinite(v)) return "0";
  char b[40];
  for (int p = 15; p <= 17; p++) {
    std::snprintf(b, sizeof b, "%.*g", p, v);
    if (std::strtod(b, nullptr) == v) break;
  }
  return b;
}

/** Fixed-point text with `digits` decimals (prices, volumes and money on the control channel). */
inline std::string fixed(double v, int digits) {
  char b[64];
  if (digits < 0) digits = 0;
  if (digits > 16) digits = 16;
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  std::string s = b;
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) {
    if (!s.empty() && s[0] == '-') s.erase(0, 1);
  }
  return s;
}

/** Small object writer: `JObj().s("k","v").n("x",1).raw("a","[...]").str()`. */
class JObj {
 public:
  JObj &s(const std::string &k, const std::string &v) { return raw(k, jstr(v)); }
  JObj &n(const std::string &k, double v) { return raw(k, jnum(v)); }
  JObj &i(const std::string &k, long long v) { return raw(k, std::to_string(v)); }
  JObj &u(const std::string &k, uint64_t v) { return raw(k, jstr(std::to_string(v))); }
  JObj &b(const std::string &k, bool v) { return raw(k, v ? "true" : "false"); }
  JObj &raw(const std::string &k, const std::string &json) {
    if (!body_.empty()) body_ += ',';
    body_ += jstr(k) + ':' + json;
    return *this;
  }
  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

/** Joins already-serialised JSON values into an array text. */
inline std::string jarr(const std::vector<std::string> &items) {
  std::string o = "[";
  for (size_t k = 0; k < items.size(); k++) {
    if (k) o += ',';
    o += items[k];
  }
  return o + "]";
}

}  // namespace cbsim
