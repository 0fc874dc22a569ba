// CopyBridge harness — WebRequest: a synchronous HTTP/1.1 client over POSIX sockets (http:// only).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>

#include "mql_crypt.h"

inline std::string MqlLower(const std::string &s) {
  std::string o = s;
  for (char &c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

/** One HTTP exchange's outcome: status (>0) or an MQL error code in `error`. */
struct MqlHttpOutcome {
  int status = -1;
  int error = 0;
  std::string headers;
  std::string body;
};

/** Waits until fd is ready for `events` or the monotonic deadline (ms) passes; false on timeout. */
inline bool MqlWaitFd(int fd, short events, long deadlineMs) {
  while (true) {
    long left = deadlineMs - MqlMonotonicMs();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    // 20 ms slices: between them the terminal does its own work (g_mqlTerminalIdle).
    int r = ::poll(&p, 1, static_cast<int>(left > 20 ? 20 : left));
    if (r > 0) return true;
    if (r == 0) {
      if (g_mqlTerminalIdle != nullptr) g_mqlTerminalIdle();
      continue;
    }
    if (r < 0 && errno != EINTR) return true;  // let the next call report the error
  }
}

/** Performs one plain-HTTP request (no redirects); errors are MQL codes 5201/5202/5203. */
inline MqlHttpOutcome MqlHttpExchange(const std::string &host, const std::string &port, const std::string &request, long deadlineMs) {
  MqlHttpOutcome out;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *res = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || res == nullptr) {
    out.error = ERR_WEBREQUEST_CONNECT_FAILED;
    return out;
  }
  int fd = -1;
  bool timedOut = false;
  for (addrinfo *ai = res; ai != nullptr; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int r = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (r != 0 && errno == EINPROGRESS) {
      if (!MqlWaitFd(fd, POLLOUT, deadlineMs)) {
        timedOut = true;
        ::close(fd);
        fd = -1;
        break;
      }
      int soerr = 0;
      socklen_t len = sizeof soerr;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
      r = soerr == 0 ? 0 : -1;
    }
    if (r == 0) break;
    ::close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd < 0) {
    out.error = timedOut ? ERR_WEBREQUEST_TIMEOUT : ERR_WEBREQUEST_CONNECT_FAILED;
    return out;
  }
  size_t sent = 0;
  while (sent < request.size()) {
    ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      if (!MqlWaitFd(fd, POLLOUT, deadlineMs)) {
        ::close(fd);
        out.error = ERR_WEBREQUEST_TIMEOUT;
        return out;
      }
      continue;
    }
    ::close(fd);
    out.error = ERR_WEBREQUEST_REQUEST_FAILED;
    return out;
  }
  // Read the answer: headers, then Content-Length, chunked, or until close.
  std::string buf;
  size_t headerEnd = std::string::npos;
  long contentLength = -1;
  bool chunked = false;
  bool closed = false;
  auto readMore = [&]() -> int {  // 1 data, 0 closed, -1 timeout, -2 error
    char tmp[16384];
    while (true) {
      ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
      if (n > 0) {
        buf.append(tmp, static_cast<size_t>(n));
        return 1;
      }
      if (n == 0) return 0;
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        if (!MqlWaitFd(fd, POLLIN, deadlineMs)) return -1;
        continue;
      }
      return -2;
    }
  };
  auto fail = [&](int r) {
    ::close(fd);
    out.error = r == -1 ? ERR_WEBREQUEST_TIMEOUT : ERR_WEBREQUEST_REQUEST_FAILED;
    out.status = -1;
    return out;
  };
  while (headerEnd == std::string::npos) {
    headerEnd = buf.find("\r\n\r\n");
    if (headerEnd != std::string::npos) break;
    int r = readMore();
    if (r <= 0) return fail(r == 0 ? -2 : r);
  }
  std::string head = buf.substr(0, headerEnd);
  std::string rest = buf.substr(headerEnd + 4);
  size_t firstLine = head.find("\r\n");
  std::string statusLine = head.substr(0, firstLine);
  out.headers = firstLine == std::string::npos ? std::string() : head.substr(firstLine + 2) + "\r\n";
  if (statusLine.compare(0, 5, "HTTP/") != 0 || statusLine.size() < 12) return fail(-2);
  out.status = std::atoi(statusLine.c_str() + 9);
  std::string lowerHead = MqlLower(out.headers);
  size_t pos = 0;
  while (pos < lowerHead.size()) {
    size_t e = lowerHead.find("\r\n", pos);
    std::string line = lowerHead.substr(pos, e - pos);
    if (line.compare(0, 15, "content-length:") == 0) contentLength = std::atol(line.c_str() + 15);
    if (line.compare(0, 18, "transfer-encoding:") == 0 && line.find("chunked") != std::string::npos) chunked = true;
    if (e == std::string::npos) break;
    pos = e + 2;
  }
  buf = rest;
  bool noBody = out.status == 204 || out.status == 304 || (out.status >= 100 && out.status < 200);
  if (noBody) {
    out.body.clear();
  } else if (chunked) {
    std::string body;
    size_t p = 0;
    while (true) {
      size_t le = buf.find("\r\n", p);
      while (le == std::string::npos) {
        int r = readMore();
        if (r <= 0) {
          int st = out.status;
          (void)st;
          return fail(r == 0 ? -2 : r);
        }
        le = buf.find("\r\n", p);
      }
      long size = std::strtol(buf.c_str() + p, nullptr, 16);
      p = le + 2;
      if (size == 0) break;
      while (buf.size() < p + static_cast<size_t>(size) + 2) {
        int r = readMore();
        if (r <= 0) return fail(r == 0 ? -2 : r);
      }
      body.append(buf, p, static_cast<size_t>(size));
      p += static_cast<size_t>(size) + 2;
    }
    out.body = body;
  } else if (contentLength >= 0) {
    while (buf.size() < static_cast<size_t>(contentLength)) {
      int r = readMore();
      if (r <= 0) return fail(r == 0 ? -2 : r);
    }
    out.body = buf.substr(0, static_cast<size_t>(contentLength));
  } else {
    while (!closed) {
      int r = readMore();
      if (r == 0) closed = true;
      else if (r < 0) return fail(r);
    }
    out.body = buf;
  }
  ::close(fd);
  return out;
}

// https://www.mql5.com/en/docs/network/webrequest (7-argument form; MQL4:
// https://docs.mql4.com/common/webrequest). Synchronous; `timeout` in ms. Sends `data` byte for
// byte (a trailing zero from StringToCharArray is sent too). Returns the HTTP status with the
// body in `result` and the header lines in `result_headers`, or -1 with GetLastError():
// 5200 invalid URL, 5201 connect failed, 5202 timeout, 5203 other (https:// — the harness speaks
// plain HTTP), 4014 (MQL5) / 4060 (MQL4) when the URL starts with none of the `--allow-url`
// values. Follows up to 5 redirects (301/302/303/307/308) to allowed http:// URLs. Adds Host,
// Content-Length, Connection: close, a MetaTrader User-Agent and, with a body but no
// Content-Type header, "Content-Type: application/x-www-form-urlencoded" (as the terminal does).
template <class D, class R, std::enable_if_t<MqlIsByte<D>::value && MqlIsByte<R>::value, int> = 0>
int WebRequest(const string &method, const string &url, const string &headers, int timeout, const MqlArray<D> &data, MqlArray<R> &result,
               string &result_headers) {
  std::string u = url.utf8();
  std::string m = method.utf8();
  std::string body = MqlBytesOf(data);
  long deadline = MqlMonotonicMs() + (timeout > 0 ? timeout : 5000);
  for (int hop = 0; hop < 6; hop++) {
    std::string lu = MqlLower(u);
    bool http = lu.compare(0, 7, "http://") == 0;
    bool https = lu.compare(0, 8, "https://") == 0;
    if (!http && !https) {
      MqlSetError(ERR_WEBREQUEST_INVALID_ADDRESS);
      return -1;
    }
    bool allowed = false;
    for (const std::string &a : g_mqlAllowUrls)
      if (!a.empty() && lu.compare(0, a.size(), MqlLower(a)) == 0) allowed = true;
    if (!allowed) {
      MqlPrintLine("harness: WebRequest to " + u + " refused: the URL is not in the allowed list (--allow-url)");
      MqlSetError(MqlIsMql5() ? 4014 : 4060);
      return -1;
    }
    if (https) {
      MqlPrintLine("harness: WebRequest to " + u + " failed: the harness speaks plain HTTP only (use http://)");
      MqlSetError(ERR_WEBREQUEST_REQUEST_FAILED);
      return -1;
    }
    std::string rest = u.substr(7);
    size_t slash = rest.find('/');
    std::string hostport = rest.substr(0, slash);
    std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
    size_t q = hostport.find_first_of("?#");
    if (q != std::string::npos) {
      path = "/" + hostport.substr(q);
      hostport = hostport.substr(0, q);
    }
    size_t hash = path.find('#');
    if (hash != std::string::npos) path = path.substr(0, hash);
    std::string host = hostport, port = "80";
    if (!hostport.empty() && hostport[0] == '[') {
      size_t rb = hostport.find(']');
      if (rb == std::string::npos) {
        MqlSetError(ERR_WEBREQUEST_INVALID_ADDRESS);
        return -1;
      }
      host = hostport.substr(1, rb - 1);
      if (rb + 1 < hostport.size() && hostport[rb + 1] == ':') port = hostport.substr(rb + 2);
    } else {
      size_t colon = hostport.rfind(':');
      if (colon != std::string::npos) {
        host = hostport.substr(0, colon);
        port = hostport.substr(colon + 1);
      }
    }
    if (host.empty() || port.empty() || port.find_first_not_of("0123456789") != std::string::npos || std::atol(port.c_str()) > 65535 ||
        u.size() > 1024) {
      MqlSetError(ERR_WEBREQUEST_INVALID_ADDRESS);
      return -1;
    }
    std::string extra;
    bool hasType = false, hasLength = false, hasAgent = false, hasHost = false;
    std::string h = headers.utf8();
    size_t p = 0;
    while (p <= h.size()) {
      size_t e = h.find('\n', p);
      std::string line = h.substr(p, e == std::string::npos ? std::string::npos : e - p);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) {
        std::string l = MqlLower(line);
        if (l.compare(0, 13, "content-type:") == 0) hasType = true;
        if (l.compare(0, 15, "content-length:") == 0) hasLength = true;
        if (l.compare(0, 11, "user-agent:") == 0) hasAgent = true;
        if (l.compare(0, 5, "host:") == 0) hasHost = true;
        if (l.compare(0, 11, "connection:") != 0) extra += line + "\r\n";
      }
      if (e == std::string::npos) break;
      p = e + 1;
    }
    std::string req = m + " " + path + " HTTP/1.1\r\n";
    if (!hasHost) req += "Host: " + hostport + "\r\n";
    if (!hasAgent) req += std::string("User-Agent: ") + (MqlIsMql5() ? "MetaTrader 5 Terminal/5.4410" : "MetaTrader 4 Terminal/4.1420") + "\r\n";
    req += extra;
    if (!body.empty() && !hasType) req += "Content-Type: application/x-www-form-urlencoded\r\n";
    if (!hasLength && (!body.empty() || m == "POST" || m == "PUT" || m == "PATCH")) req += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    req += "Connection: close\r\n\r\n";
    req += body;
    MqlHttpOutcome o = MqlHttpExchange(host, port, req, deadline);
    if (o.error != 0) {
      MqlSetError(o.error);
      return -1;
    }
    if ((o.status == 301 || o.status == 302 || o.status == 303 || o.status == 307 || o.status == 308) && hop < 5) {
      std::string lh = MqlLower(o.headers);
      size_t k = lh.find("location:");
      if (k != std::string::npos) {
        size_t e = o.headers.find("\r\n", k);
        std::string loc = o.headers.substr(k + 9, e - k - 9);
        while (!loc.empty() && loc[0] == ' ') loc.erase(0, 1);
        if (!loc.empty() && loc[0] == '/') loc = "http://" + hostport + loc;
        u = loc;
        if (o.status == 303) {
          m = "GET";
          body.clear();
        }
        continue;
      }
    }
    MqlSetBytes(result, o.body);
    result_headers = string(o.headers);
    return o.status;
  }
  MqlSetError(ERR_WEBREQUEST_REQUEST_FAILED);
  return -1;
}
