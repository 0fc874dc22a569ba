// CopyBridge harness — the EA process (DESIGN.md §5). build.ts compiles one translation unit:
//   #include "<translated EA>"   (starts with #include "mql.h", which brings broker.h)
//   #include "main.cpp"
// with -DMQL_HAS_ONINIT / MQL_ONINIT_VOID / MQL_HAS_ONDEINIT / MQL_HAS_ONTICK / MQL_HAS_ONTIMER /
// MQL_HAS_ONTRADETRANSACTION for the handlers the EA defines, and -DMQL_HARNESS_EA_NAME="\"Name\"".
//
//   <binary> --files DIR [--broker broker.json] [--input Name=value]... [--allow-url URL]... [--detached]
//   (--detached: the terminal runs with the EA not attached: broker commands only, no EA event)
//
// Exit codes: 0 after quit / SIGTERM / ExpertRemove, 2 bad command line or input, 3 OnInit failed,
// 4 MQL critical runtime error (array out of range).
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <deque>

#include "mql.h"

#ifndef MQL_HARNESS_EA_NAME
#define MQL_HARNESS_EA_NAME "EA"
#endif

namespace mqlmain {

inline void OnSignal(int) { g_mqlStopRequested = 1; }

inline void Answer(const std::string &json) { MqlPrintLine("@@ " + json); }

/** `--detached`: the terminal runs (book, quotes, manual trades) with the EA not attached. */
bool g_detached = false;

inline void RunDeinit(int reason) {
  if (g_detached) return;
  g_mqlUninitReason = reason;
#ifdef MQL_HAS_ONDEINIT
  OnDeinit(reason);
#endif
  GlobalVariablesFlush();
  MqlCloseAllFiles();
}

/** Runs the queued EA events: trade transactions (MT5), one OnTick after a quote change, OnTimer when due. */
inline void DispatchEvents() {
  if (g_detached) {
    // No EA: the terminal's events go nowhere (MT5 transactions are not kept for a later EA).
#ifdef __MQL5__
    MqlTradeTransaction t;
    MqlTradeRequest rq;
    MqlTradeResult rs;
    while (BrokerPopTransaction(t, rq, rs)) {
    }
#endif
    BrokerQuoteChanged();
    return;
  }
#ifdef __MQL5__
  {
    MqlTradeTransaction t;
    MqlTradeRequest rq;
    MqlTradeResult rs;
    while (!IsStopped() && BrokerPopTransaction(t, rq, rs)) {
#ifdef MQL_HAS_ONTRADETRANSACTION
      OnTradeTransaction(t, rq, rs);
#endif
      t = MqlTradeTransaction();
      rq = MqlTradeRequest();
      rs = MqlTradeResult();
    }
  }
#endif
  if (IsStopped()) return;
  if (BrokerQuoteChanged()) {
#ifdef MQL_HAS_ONTICK
    OnTick();
#endif
  }
  if (IsStopped()) return;
  if (g_mqlTimerPeriodMs > 0 && MqlMonotonicMs() >= g_mqlTimerDueMs) {
    // One pending Timer event at most: a late timer fires once, then the period restarts.
    g_mqlTimerDueMs = MqlMonotonicMs() + g_mqlTimerPeriodMs;
#ifdef MQL_HAS_ONTIMER
    OnTimer();
#endif
  }
}

inline bool IsBookCommand(const std::string &word) {
  static const char *const words[] = {"open", "close", "modify", "pending", "pmodify", "cancel", "price", "requote", "reject-fill", "book"};
  for (const char *w : words)
    if (word == w) return true;
  return false;
}

std::string g_inbuf;
std::deque<std::string> g_commands;
bool g_stdinOpen = true;

/** Moves whatever stdin holds now into g_commands, waiting at most `timeoutMs` for it. */
inline void ReadCommands(int timeoutMs) {
  if (!g_stdinOpen) return;
  pollfd p{0, POLLIN, 0};
  if (::poll(&p, 1, timeoutMs) <= 0) return;
  // One read after poll: never blocks, and stdin keeps its flags (no O_NONBLOCK on a terminal
  // shared with the shell).
  char buf[4096];
  ssize_t n = ::read(0, buf, sizeof buf);
  if (n > 0) g_inbuf.append(buf, static_cast<size_t>(n));
  else if (n == 0 || (errno != EINTR && errno != EAGAIN)) g_stdinOpen = false;
  size_t nl;
  while ((nl = g_inbuf.find('\n')) != std::string::npos) {
    std::string line = g_inbuf.substr(0, nl);
    g_inbuf.erase(0, nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    while (!line.empty() && line.front() == ' ') line.erase(0, 1);
    if (!line.empty()) g_commands.push_back(line);
  }
}

/**
 * While the EA is blocked (WebRequest, Sleep), the terminal still answers broker commands (book,
 * manual trades, quotes), in order; anything else (status, wait, together, quit) waits for the
 * main loop. Broker-side changes queue their trade transactions for the EA as usual.
 */
inline void TerminalIdle() {
  ReadCommands(0);
  while (!g_commands.empty()) {
    const std::string &line = g_commands.front();
    std::string word = line.substr(0, line.find(' '));
    if (!IsBookCommand(word)) return;
    std::string answer = BrokerCommand(line);
    g_commands.pop_front();
    Answer(answer);
  }
}

[[noreturn]] inline void Usage(const std::string &why) {
  std::fprintf(stderr, "%s\nusage: %s --files DIR [--broker broker.json] [--input Name=value]... [--allow-url URL]... [--detached]\n", why.c_str(), MQL_HARNESS_EA_NAME);
  std::exit(2);
}

inline int Run(int argc, char **argv) {
  std::string brokerPath;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage("missing value after " + a);
      return argv[++i];
    };
    if (a == "--files") g_mqlFilesDir = value();
    else if (a == "--broker") brokerPath = value();
    else if (a == "--input") inputs.push_back(value());
    else if (a == "--allow-url") g_mqlAllowUrls.push_back(value());
    else if (a == "--detached") g_detached = true;
    else Usage("unknown argument " + a);
  }
  g_mqlProgramName = MQL_HARNESS_EA_NAME;
  for (const std::string &kv : inputs) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) Usage("--input needs Name=value, got " + kv);
    std::string err;
    if (!MqlSetInput(kv.substr(0, eq), kv.substr(eq + 1), err)) Usage(err);
  }
  MqlMakeDirs(g_mqlFilesDir);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);
  std::signal(SIGPIPE, SIG_IGN);
  BrokerLoad(brokerPath);

  ResetLastError();
  if (g_detached) MqlPrintLine("harness: terminal running without the EA attached (--detached)");
  int initResult = INIT_SUCCEEDED;
#ifdef MQL_HAS_ONINIT
#ifdef MQL_ONINIT_VOID
  if (!g_detached) OnInit();
#else
  if (!g_detached) initResult = static_cast<int>(OnInit());
#endif
#endif
  if (initResult != INIT_SUCCEEDED) {
    const char *name = initResult == INIT_FAILED ? "INIT_FAILED"
                       : initResult == INIT_PARAMETERS_INCORRECT ? "INIT_PARAMETERS_INCORRECT"
                       : initResult == INIT_AGENT_NOT_SUITABLE ? "INIT_AGENT_NOT_SUITABLE"
                                                                 : "non-zero";
    MqlPrintLine(std::string("harness: OnInit returned ") + name + " (" + std::to_string(initResult) + "), the EA is removed");
    RunDeinit(REASON_INITFAILED);
    return 3;
  }

  g_mqlTerminalIdle = TerminalIdle;
  std::deque<std::string> &commands = g_commands;
  long waitUntil = -1;
  while (true) {
    if (g_mqlExpertRemoved) {
      RunDeinit(REASON_REMOVE);
      return 0;
    }
    if (g_mqlStopRequested) {
      RunDeinit(REASON_CLOSE);
      return 0;
    }
    DispatchEvents();
    if (IsStopped()) continue;
    long now = MqlMonotonicMs();
    if (waitUntil >= 0 && now >= waitUntil) {
      waitUntil = -1;
      Answer("{\"ok\":true}");
    }
    if (waitUntil < 0 && !commands.empty()) {
      std::string line = commands.front();
      commands.pop_front();
      std::string word = line.substr(0, line.find(' '));
      if (word == "status") {
        Answer("{\"comment\":" + MqlJsonQuote(g_mqlComment.utf8()) + ",\"lastError\":" + std::to_string(_LastError) + "}");
      } else if (word == "wait") {
        long ms = std::atol(line.c_str() + 4);
        waitUntil = MqlMonotonicMs() + (ms < 0 ? 0 : ms);
      } else if (word == "quit") {
        g_mqlStopRequested = 1;  // IsStopped() is true from here on, as when the terminal closes
        RunDeinit(REASON_CLOSE);
        Answer("{\"ok\":true}");
        return 0;
      } else if (word == "together") {
        // `together CMD; CMD; ...`: book commands applied in one turn of the loop, with no EA
        // event in between, as when several things happen at the broker while the EA is busy.
        std::string rest = line.size() > 9 ? line.substr(9) : std::string();
        std::string answers;
        bool allOk = true;
        size_t start = 0;
        while (start <= rest.size()) {
          size_t end = rest.find(';', start);
          if (end == std::string::npos) end = rest.size();
          std::string part = rest.substr(start, end - start);
          while (!part.empty() && part.front() == ' ') part.erase(0, 1);
          while (!part.empty() && part.back() == ' ') part.pop_back();
          if (!part.empty()) {
            std::string w = part.substr(0, part.find(' '));
            std::string a = IsBookCommand(w) ? BrokerCommand(part) : "{\"ok\":false,\"error\":" + MqlJsonQuote("not a book command: " + w) + "}";
            if (a.find("\"ok\":false") != std::string::npos) allOk = false;
            answers += (answers.empty() ? "" : ",") + a;
          }
          start = end + 1;
        }
        Answer(std::string("{\"ok\":") + (allOk ? "true" : "false") + ",\"answers\":[" + answers + "]}");
      } else if (IsBookCommand(word)) {
        Answer(BrokerCommand(line));
      } else {
        Answer("{\"ok\":false,\"error\":" + MqlJsonQuote("unknown command: " + word) + "}");
      }
      continue;
    }
    // Sleep until input, the timer, the end of a wait, or 50 ms (quotes and transactions only
    // change through commands or the EA itself).
    long timeout = 50;
    if (g_mqlTimerPeriodMs > 0) timeout = std::min(timeout, std::max(0L, g_mqlTimerDueMs - now));
    if (waitUntil >= 0) timeout = std::min(timeout, std::max(0L, waitUntil - now));
    if (g_stdinOpen && (waitUntil < 0 || commands.empty())) {
      ReadCommands(static_cast<int>(timeout));
    } else if (timeout > 0) {
      ::poll(nullptr, 0, static_cast<int>(timeout));
    }
  }
}

}  // namespace mqlmain

int main(int argc, char **argv) { return mqlmain::Run(argc, argv); }
