// CopyBridge harness — stand-in broker for testing the core without runtime/broker.h
// (selected by -DMQL_BROKER_STUB or when broker.h is absent). Provides the hooks main.cpp calls;
// every book command answers {"ok":false,"error":"no broker"}.
#pragma once

#include "mql.h"

#ifdef __MQL5__
struct MqlTradeRequest {
  int action = 0;
  ulong magic = 0;
  ulong order = 0;
  string symbol;
  double volume = 0;
  double price = 0;
  double stoplimit = 0;
  double sl = 0;
  double tp = 0;
  ulong deviation = 0;
  int type = 0;
  int type_filling = 0;
  int type_time = 0;
  datetime expiration = 0;
  string comment;
  ulong position = 0;
  ulong position_by = 0;
};
struct MqlTradeResult {
  uint retcode = 0;
  ulong deal = 0;
  ulong order = 0;
  double volume = 0;
  double price = 0;
  double bid = 0;
  double ask = 0;
  string comment;
  uint request_id = 0;
  int retcode_external = 0;
};
struct MqlTradeTransaction {
  ulong deal = 0;
  ulong order = 0;
  string symbol;
  int type = 0;
  int order_type = 0;
  int order_state = 0;
  int deal_type = 0;
  int time_type = 0;
  datetime time_expiration = 0;
  double price = 0;
  double price_trigger = 0;
  double price_sl = 0;
  double price_tp = 0;
  double volume = 0;
  ulong position = 0;
  ulong position_by = 0;
};
/** Stub: no transactions. */
inline bool BrokerPopTransaction(MqlTradeTransaction &, MqlTradeRequest &, MqlTradeResult &) { return false; }
#endif

/** Stub: nothing to load. */
inline void BrokerLoad(const std::string &) {}
/** Stub: every book command fails. */
inline std::string BrokerCommand(const std::string &) { return "{\"ok\":false,\"error\":\"no broker\"}"; }
/** Stub: quotes never change. */
inline bool BrokerQuoteChanged() { return false; }
