// CopyBridge harness — CryptEncode via OpenSSL libcrypto (link with -lcrypto).
#pragma once

#include <openssl/evp.h>

#include "mql_strings.h"

/** Standard BASE64 (RFC 4648, with padding, no line breaks). */
inline std::string MqlBase64(const std::string &in) {
  static const char *tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  while (i + 2 < in.size()) {
    uint32_t v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) | static_cast<unsigned char>(in[i + 2]);
    out.push_back(tbl[(v >> 18) & 63]);
    out.push_back(tbl[(v >> 12) & 63]);
    out.push_back(tbl[(v >> 6) & 63]);
    out.push_back(tbl[v & 63]);
    i += 3;
  }
  if (i < in.size()) {
    uint32_t v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out.push_back(tbl[(v >> 18) & 63]);
    out.push_back(tbl[(v >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? tbl[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

/** Digest of bytes with an OpenSSL EVP algorithm; empty on failure. */
inline std::string MqlDigest(const EVP_MD *md, const std::string &data) {
  unsigned char buf[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(data.data(), data.size(), buf, &n, md, nullptr) != 1) return std::string();
  return std::string(reinterpret_cast<char *>(buf), n);
}

template <class C>
std::string MqlBytesOf(const MqlArray<C> &a) {
  std::string s;
  s.reserve(static_cast<size_t>(a.size()));
  for (int i = 0; i < a.size(); i++) s.push_back(static_cast<char>(a[i]));
  return s;
}
template <class C>
void MqlSetBytes(MqlArray<C> &a, const std::string &bytes) {
  a.resize(static_cast<int>(bytes.size()));
  for (size_t i = 0; i < bytes.size(); i++) a[static_cast<long>(i)] = static_cast<C>(bytes[i]);
}

// https://www.mql5.com/en/docs/common/cryptencode — CRYPT_HASH_SHA256 (32 bytes),
// CRYPT_HASH_SHA1 (20 bytes), CRYPT_BASE64; the key is ignored for hashes and BASE64 (it is not
// an HMAC key). Returns the number of result bytes, 0 on error (the other methods are not in
// DESIGN.md §4: 0 with the invalid-parameter error and a printed note).
template <class A, class B, class R,
          std::enable_if_t<MqlIsByte<A>::value && MqlIsByte<B>::value && MqlIsByte<R>::value, int> = 0>
int CryptEncode(int method, const MqlArray<A> &data, const MqlArray<B> &key, MqlArray<R> &result) {
  (void)key;
  std::string in = MqlBytesOf(data);
  std::string out;
  switch (method) {
    case CRYPT_HASH_SHA256: out = MqlDigest(EVP_sha256(), in); break;
    case CRYPT_HASH_SHA1: out = MqlDigest(EVP_sha1(), in); break;
    case CRYPT_BASE64: out = MqlBase64(in); break;
    default:
      MqlPrintLine("harness: CryptEncode method " + std::to_string(method) + " is not implemented");
      MqlSetError(MqlErrParam());
      return 0;
  }
  MqlSetBytes(result, out);
  return static_cast<int>(out.size());
}
