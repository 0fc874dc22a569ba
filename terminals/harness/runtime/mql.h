// CopyBridge harness — the MQL built-ins of DESIGN.md §4 for g++ (C++17).
// Each translated .mq4/.mq5/.mqh starts with `#include "mql.h"`; compile with exactly one of
// -D__MQL5__ / -D__MQL4__, -fsigned-char, -lcrypto.
//
//   mql_core.h       types: string (UTF-16), MqlArray<T>, typedefs, _LastError, MQL_INPUT, hooks
//   mql_constants.h  enums and constants of the non-trade built-ins
//   mql_common.h     errors, Print/Comment/Alert, time, math, timers, terminal info, Sleep
//   mql_strings.h    string functions, conversions, StringFormat, char arrays, array functions
//   mql_crypt.h      CryptEncode (SHA-256, SHA-1, MD5, BASE64) via OpenSSL libcrypto
//   mql_files.h      sandboxed files and terminal global variables
//   mql_net.h        WebRequest (plain HTTP/1.1 over POSIX sockets)
//   broker.h         simulated broker (trade/account/symbol API)
#pragma once

#include "mql_core.h"
#include "mql_constants.h"
#include "mql_common.h"
#include "mql_strings.h"
#include "mql_crypt.h"
#include "mql_files.h"
#include "mql_net.h"

#include "broker.h"
