// CopyBridge harness — simulated broker: the MQL4/MQL5 trade, account and symbol built-ins of
// DESIGN.md §4 over the broker core (broker_core.h), plus the hooks the main loop calls:
//
//   void BrokerLoad(const std::string &brokerJsonPath)   read broker.json + stateFile (exit 2 on error)
//   std::string BrokerCommand(const std::string &line)   control line → JSON text of the `@@` answer
//   bool BrokerPopTransaction(MqlTradeTransaction &t, MqlTradeRequest &rq, MqlTradeResult &rs)
//                                                         next queued MT5 transaction (false: none)
//   bool BrokerQuoteChanged()                             true once after quote change(s) (→ OnTick)
//   long BrokerUtcOffsetSec()                             broker time − UTC, seconds
//
// Included by mql.h after the core headers.
#pragma once

#include "mql_core.h"
#include "mql_constants.h"
#include "broker_defs.h"
#include "broker_core.h"

// ---------------------------------------------------------------------------------------------
// Hooks for main.cpp

/** Loads broker.json and the persisted book; on any error prints `broker: <reason>` and exits 2. */
inline void BrokerLoad(const std::string &brokerJsonPath) {
  try {
    cbsim::broker().load(brokerJsonPath, MqlIsMql5());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "broker: %s\n", e.what());
    MqlPrintLine(std::string("broker: ") + e.what());
    std::exit(2);
  }
  cbsim::Broker &b = cbsim::broker();
  g_mqlBrokerOffsetSec = (long)b.utcOffsetSec;
  if (!b.symbols.empty()) {
    _Symbol = string(b.symbols[0].name);
    _Digits = b.symbols[0].digits;
    _Point = b.symbols[0].point;
  }
}

/** Executes one control-channel line (DESIGN.md §5) and returns its answer's JSON text. */
inline std::string BrokerCommand(const std::string &line) {
  try {
    return cbsim::broker().command(line);
  } catch (const std::exception &e) {
    return cbsim::JObj().b("ok", false).s("error", e.what()).str();
  }
}

/** True once after one or more quote changes since the last call (the main loop then runs OnTick). */
inline bool BrokerQuoteChanged() {
  bool c = cbsim::broker().quoteChanged;
  cbsim::broker().quoteChanged = false;
  return c;
}

/** Broker server time − UTC, seconds (`"utcOffsetSec"` in broker.json, default 0). */
inline long BrokerUtcOffsetSec() { return (long)cbsim::broker().utcOffsetSec; }

#ifdef __MQL5__
namespace cbmql {

inline MqlTradeRequest toMql(const cbsim::Req &r) {
  MqlTradeRequest q;
  q.action = (ENUM_TRADE_REQUEST_ACTIONS)r.action;
  q.magic = r.magic;
  q.order = r.order;
  q.symbol = string(r.symbol);
  q.volume = r.volume;
  q.price = r.price;
  q.stoplimit = r.stoplimit;
  q.sl = r.sl;
  q.tp = r.tp;
  q.deviation = r.deviation;
  q.type = (ENUM_ORDER_TYPE)r.type;
  q.type_filling = (ENUM_ORDER_TYPE_FILLING)r.filling;
  q.type_time = (ENUM_ORDER_TYPE_TIME)r.typeTime;
  q.expiration = (datetime)r.expiration;
  q.comment = string(r.comment);
  q.position = r.position;
  q.position_by = r.positionBy;
  return q;
}
inline cbsim::Req fromMql(const MqlTradeRequest &q) {
  cbsim::Req r;
  r.action = (int)q.action;
  r.magic = q.magic;
  r.order = q.order;
  r.symbol = q.symbol.utf8();
  r.volume = q.volume;
  r.price = q.price;
  r.stoplimit = q.stoplimit;
  r.sl = q.sl;
  r.tp = q.tp;
  r.deviation = q.deviation;
  r.type = (int)q.type;
  r.filling = (int)q.type_filling;
  r.typeTime = (int)q.type_time;
  r.expiration = (int64_t)q.expiration;
  r.comment = q.comment.utf8();
  r.position = q.position;
  r.positionBy = q.position_by;
  return r;
}
inline void toMql(const cbsim::Res &s, MqlTradeResult &r) {
  r.retcode = s.retcode;
  r.deal = s.deal;
  r.order = s.order;
  r.volume = s.volume;
  r.price = s.price;
  r.bid = s.bid;
  r.ask = s.ask;
  r.comment = string(s.comment);
  r.request_id = s.requestId;
  r.retcode_external = s.retcodeExternal;
}

}  // namespace cbmql

/**
 * Next queued trade transaction (MT5 OnTradeTransaction), in the order the broker produced them:
 * per operation ORDER_ADD → ORDER_DELETE → HISTORY_ADD → DEAL_ADD (market), POSITION (SL/TP),
 * ORDER_ADD (pending), ORDER_UPDATE (pending modify), ORDER_DELETE → HISTORY_ADD (cancel/expiry),
 * then REQUEST for the EA's own requests. `rq`/`rs` are zero except for REQUEST. False when empty.
 */
inline bool BrokerPopTransaction(MqlTradeTransaction &t, MqlTradeRequest &rq, MqlTradeResult &rs) {
  auto &q = cbsim::broker().txns;
  if (q.empty()) return false;
  cbsim::Txn x = q.front();
  q.pop_front();
  t = MqlTradeTransaction();
  t.deal = x.deal;
  t.order = x.order;
  t.symbol = string(x.symbol);
  t.type = (ENUM_TRADE_TRANSACTION_TYPE)x.type;
  t.order_type = (ENUM_ORDER_TYPE)x.orderType;
  t.order_state = (ENUM_ORDER_STATE)x.orderState;
  t.deal_type = (ENUM_DEAL_TYPE)x.dealType;
  t.time_type = (ENUM_ORDER_TYPE_TIME)x.timeType;
  t.time_expiration = (datetime)x.expiration;
  t.price = x.price;
  t.price_trigger = x.priceTrigger;
  t.price_sl = x.sl;
  t.price_tp = x.tp;
  t.volume = x.volume;
  t.position = x.position;
  t.position_by = x.positionBy;
  rq = MqlTradeRequest();
  rs = MqlTradeResult();
  if (x.type == cbsim::kTxRequest) {
    rq = cbmql::toMql(x.req);
    cbmql::toMql(x.res, rs);
  }
  return true;
}
#endif  // __MQL5__

// ---------------------------------------------------------------------------------------------
// Account — https://www.mql5.com/en/docs/account , https://docs.mql4.com/account

/** https://www.mql5.com/en/docs/account/accountinfointeger */
inline long AccountInfoInteger(int property_id) {
  cbsim::Broker &b = cbsim::broker();
  switch (property_id) {
    case ACCOUNT_LOGIN: return (long)b.login;
    case ACCOUNT_TRADE_MODE: return ACCOUNT_TRADE_MODE_DEMO;
    case ACCOUNT_LEVERAGE: return (long)b.leverage;
    case ACCOUNT_LIMIT_ORDERS: return 0;
    case ACCOUNT_MARGIN_SO_MODE: return ACCOUNT_STOPOUT_MODE_PERCENT;
    case ACCOUNT_TRADE_ALLOWED: return b.tradeAllowed ? 1 : 0;
    case ACCOUNT_TRADE_EXPERT: return b.tradeExpert ? 1 : 0;
#ifdef __MQL5__
    case ACCOUNT_MARGIN_MODE: return b.netting ? ACCOUNT_MARGIN_MODE_RETAIL_NETTING : ACCOUNT_MARGIN_MODE_RETAIL_HEDGING;
    case ACCOUNT_CURRENCY_DIGITS: return 2;
    case ACCOUNT_FIFO_CLOSE: return 0;
    case ACCOUNT_HEDGE_ALLOWED: return b.netting ? 0 : 1;
#endif
    default: MqlSetError(MqlIsMql5() ? 4701 : 4051); return 0;
  }
}

/** https://www.mql5.com/en/docs/account/accountinfodouble — money in account currency. */
inline double AccountInfoDouble(int property_id) {
  cbsim::Broker &b = cbsim::broker();
  switch (property_id) {
    case ACCOUNT_BALANCE: return b.balance;
    case ACCOUNT_CREDIT: return b.credit;
    case ACCOUNT_PROFIT: return std::round(b.profit() * 100.0) / 100.0;
    case ACCOUNT_EQUITY: return std::round(b.equity() * 100.0) / 100.0;
    case ACCOUNT_MARGIN: return b.margin();
    case ACCOUNT_MARGIN_FREE: return std::round(b.freeMargin() * 100.0) / 100.0;
    case ACCOUNT_MARGIN_LEVEL: {
      double m = b.margin();
      return m > 0 ? std::round(b.equity() / m * 10000.0) / 100.0 : 0.0;
    }
    case ACCOUNT_MARGIN_SO_CALL: return b.soCall;
    case ACCOUNT_MARGIN_SO_SO: return b.soLevel;
    case ACCOUNT_MARGIN_INITIAL: return 0;
    case ACCOUNT_MARGIN_MAINTENANCE: return 0;
    case ACCOUNT_ASSETS: return 0;
    case ACCOUNT_LIABILITIES: return 0;
    case ACCOUNT_COMMISSION_BLOCKED: return 0;
    default: MqlSetError(MqlIsMql5() ? 4701 : 4051); return 0;
  }
}

/** https://www.mql5.com/en/docs/account/accountinfostring */
inline string AccountInfoString(int property_id) {
  cbsim::Broker &b = cbsim::broker();
  switch (property_id) {
    case ACCOUNT_NAME: return string(b.name);
    case ACCOUNT_SERVER: return string(b.server);
    case ACCOUNT_CURRENCY: return string(b.currency);
    case ACCOUNT_COMPANY: return string(b.company);
    default: MqlSetError(MqlIsMql5() ? 4701 : 4051); return string();
  }
}

#ifdef __MQL4__
/** https://docs.mql4.com/account/accountbalance */
inline double AccountBalance() { return AccountInfoDouble(ACCOUNT_BALANCE); }
/** https://docs.mql4.com/account/accountequity */
inline double AccountEquity() { return AccountInfoDouble(ACCOUNT_EQUITY); }
/** https://docs.mql4.com/account/accountmargin */
inline double AccountMargin() { return AccountInfoDouble(ACCOUNT_MARGIN); }
/** https://docs.mql4.com/account/accountfreemargin */
inline double AccountFreeMargin() { return AccountInfoDouble(ACCOUNT_MARGIN_FREE); }
/** https://docs.mql4.com/account/accountprofit */
inline double AccountProfit() { return AccountInfoDouble(ACCOUNT_PROFIT); }
/** https://docs.mql4.com/account/accountcredit */
inline double AccountCredit() { return AccountInfoDouble(ACCOUNT_CREDIT); }
/** https://docs.mql4.com/account/accountnumber */
inline int AccountNumber() { return (int)AccountInfoInteger(ACCOUNT_LOGIN); }
/** https://docs.mql4.com/account/accountleverage */
inline int AccountLeverage() { return (int)AccountInfoInteger(ACCOUNT_LEVERAGE); }
/** https://docs.mql4.com/account/accountcurrency */
inline string AccountCurrency() { return AccountInfoString(ACCOUNT_CURRENCY); }
/** https://docs.mql4.com/account/accountcompany */
inline string AccountCompany() { return AccountInfoString(ACCOUNT_COMPANY); }
/** https://docs.mql4.com/account/accountserver */
inline string AccountServer() { return AccountInfoString(ACCOUNT_SERVER); }
/** https://docs.mql4.com/account/accountname */
inline string AccountName() { return AccountInfoString(ACCOUNT_NAME); }
#endif

// ---------------------------------------------------------------------------------------------
// Symbols — https://www.mql5.com/en/docs/marketinformation , https://docs.mql4.com/marketinformation

namespace cbmql {
/** The broker's symbol `name`, or nullptr with the unknown-symbol error set (MQL5 4301, MQL4 4106). */
inline cbsim::Symbol *symbolOrError(const string &name) {
  cbsim::Symbol *s = cbsim::broker().sym(name.utf8());
  if (!s) MqlSetError(MqlIsMql5() ? 4301 : 4106);
  return s;
}
inline bool symbolDouble(const cbsim::Symbol &s, int id, double &v) {
  switch (id) {
    case SYMBOL_BID: case SYMBOL_BIDHIGH: case SYMBOL_BIDLOW: case SYMBOL_LAST: v = s.bid; return true;
    case SYMBOL_ASK: case SYMBOL_ASKHIGH: case SYMBOL_ASKLOW: v = s.ask; return true;
    case SYMBOL_POINT: v = s.point; return true;
    case SYMBOL_TRADE_TICK_VALUE: case SYMBOL_TRADE_TICK_VALUE_PROFIT: case SYMBOL_TRADE_TICK_VALUE_LOSS: v = s.tickValue; return true;
    case SYMBOL_TRADE_TICK_SIZE: v = s.tickSize; return true;
    case SYMBOL_TRADE_CONTRACT_SIZE: v = s.contractSize; return true;
    case SYMBOL_VOLUME_MIN: v = s.volumeMin; return true;
    case SYMBOL_VOLUME_MAX: v = s.volumeMax; return true;
    case SYMBOL_VOLUME_STEP: v = s.volumeStep; return true;
    case SYMBOL_VOLUME_LIMIT: case SYMBOL_SWAP_LONG: case SYMBOL_SWAP_SHORT: case SYMBOL_MARGIN_INITIAL:
    case SYMBOL_MARGIN_MAINTENANCE: v = 0; return true;
    default: return false;
  }
}
inline bool symbolInteger(const cbsim::Symbol &s, int id, long &v) {
  switch (id) {
    case SYMBOL_SELECT: v = s.selected ? 1 : 0; return true;
    case SYMBOL_VISIBLE: v = s.selected ? 1 : 0; return true;
    case SYMBOL_EXIST: v = 1; return true;
    case SYMBOL_CUSTOM: v = 0; return true;
    case SYMBOL_DIGITS: v = s.digits; return true;
    case SYMBOL_SPREAD: v = s.point > 0 ? (long)std::llround((s.ask - s.bid) / s.point) : 0; return true;
    case SYMBOL_SPREAD_FLOAT: v = 1; return true;
    case SYMBOL_TRADE_MODE: v = s.tradeMode; return true;
    case SYMBOL_TRADE_STOPS_LEVEL: v = s.stopsLevel; return true;
    case SYMBOL_TRADE_FREEZE_LEVEL: v = s.freezeLevel; return true;
    case SYMBOL_TRADE_EXEMODE: v = s.exeMode; return true;
    case SYMBOL_FILLING_MODE: v = s.fillingMode; return true;
    case SYMBOL_EXPIRATION_MODE: v = 15; return true;  // GTC | DAY | SPECIFIED | SPECIFIED_DAY
    case SYMBOL_ORDER_MODE: v = 1 | 2 | 4 | 16 | 32; return true;  // MARKET LIMIT STOP SL TP
    case SYMBOL_TIME: v = (long)(s.quoteMsc / 1000); return true;
    case SYMBOL_TRADE_CALC_MODE: v = 0; return true;  // SYMBOL_CALC_MODE_FOREX
    case SYMBOL_START_TIME: case SYMBOL_EXPIRATION_TIME: v = 0; return true;
    default: return false;
  }
}
inline bool symbolString(const cbsim::Symbol &s, int id, std::string &v) {
  switch (id) {
    case SYMBOL_DESCRIPTION: v = s.description; return true;
    case SYMBOL_CURRENCY_BASE: v = s.currencyBase; return true;
    case SYMBOL_CURRENCY_PROFIT: v = s.currencyProfit; return true;
    case SYMBOL_CURRENCY_MARGIN: v = s.currencyMargin; return true;
    case SYMBOL_PATH: v = "Forex\\" + s.name; return true;
    case SYMBOL_BASIS: case SYMBOL_ISIN: v = ""; return true;
    default: return false;
  }
}
inline int wrongSymbolProperty() { return MqlIsMql5() ? 4303 : 4051; }
}  // namespace cbmql

/** https://www.mql5.com/en/docs/marketinformation/symbolinfodouble — 0 + error for an unknown symbol/property. */
inline double SymbolInfoDouble(const string &name, int prop_id) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  double v = 0;
  if (s && !cbmql::symbolDouble(*s, prop_id, v)) MqlSetError(cbmql::wrongSymbolProperty());
  return v;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolinfodouble (bool form) */
inline bool SymbolInfoDouble(const string &name, int prop_id, double &value) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  if (!s) return false;
  if (!cbmql::symbolDouble(*s, prop_id, value)) {
    MqlSetError(cbmql::wrongSymbolProperty());
    return false;
  }
  return true;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolinfointeger */
inline long SymbolInfoInteger(const string &name, int prop_id) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  long v = 0;
  if (s && !cbmql::symbolInteger(*s, prop_id, v)) MqlSetError(cbmql::wrongSymbolProperty());
  return v;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolinfointeger (bool form) */
inline bool SymbolInfoInteger(const string &name, int prop_id, long &value) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  if (!s) return false;
  if (!cbmql::symbolInteger(*s, prop_id, value)) {
    MqlSetError(cbmql::wrongSymbolProperty());
    return false;
  }
  return true;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolinfostring */
inline string SymbolInfoString(const string &name, int prop_id) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  std::string v;
  if (s && !cbmql::symbolString(*s, prop_id, v)) MqlSetError(cbmql::wrongSymbolProperty());
  return string(v);
}
/** https://www.mql5.com/en/docs/marketinformation/symbolinfostring (bool form) */
inline bool SymbolInfoString(const string &name, int prop_id, string &value) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  if (!s) return false;
  std::string v;
  if (!cbmql::symbolString(*s, prop_id, v)) {
    MqlSetError(cbmql::wrongSymbolProperty());
    return false;
  }
  value = string(v);
  return true;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolinfotick — current bid/ask and quote time. */
inline bool SymbolInfoTick(const string &symbol, MqlTick &tick) {
  cbsim::Symbol *s = cbmql::symbolOrError(symbol);
  if (!s) return false;
  tick = MqlTick();
  tick.time = (datetime)(s->quoteMsc / 1000);
  tick.time_msc = (long)s->quoteMsc;
  tick.bid = s->bid;
  tick.ask = s->ask;
  tick.last = s->bid;
  tick.flags = 6;  // TICK_FLAG_BID | TICK_FLAG_ASK
  return true;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolselect — false for a symbol the broker does not have. */
inline bool SymbolSelect(const string &name, bool select) {
  cbsim::Symbol *s = cbmql::symbolOrError(name);
  if (!s) return false;
  s->selected = select;
  return true;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolstotal */
inline int SymbolsTotal(bool selected) {
  int n = 0;
  for (auto &s : cbsim::broker().symbols)
    if (!selected || s.selected) n++;
  return n;
}
/** https://www.mql5.com/en/docs/marketinformation/symbolname — "" when pos is out of range. */
inline string SymbolName(int pos, bool selected) {
  int n = 0;
  for (auto &s : cbsim::broker().symbols) {
    if (selected && !s.selected) continue;
    if (n++ == pos) return string(s.name);
  }
  MqlSetError(MqlIsMql5() ? 4003 : 4051);
  return string();
}

#ifdef __MQL4__
/** https://docs.mql4.com/marketinformation/marketinfo — 0 with ERR_UNKNOWN_SYMBOL (4106) for an unknown symbol. */
inline double MarketInfo(const string &symbol, int type) {
  cbsim::Symbol *s = cbmql::symbolOrError(symbol);
  if (!s) return 0;
  switch (type) {
    case MODE_LOW: case MODE_BID: return s->bid;
    case MODE_HIGH: case MODE_ASK: return s->ask;
    case MODE_TIME: return (double)(s->quoteMsc / 1000);
    case MODE_POINT: return s->point;
    case MODE_DIGITS: return s->digits;
    case MODE_SPREAD: return s->point > 0 ? (double)std::llround((s->ask - s->bid) / s->point) : 0;
    case MODE_STOPLEVEL: return s->stopsLevel;
    case MODE_LOTSIZE: return s->contractSize;
    case MODE_TICKVALUE: return s->tickValue;
    case MODE_TICKSIZE: return s->tickSize;
    case MODE_SWAPLONG: case MODE_SWAPSHORT: case MODE_STARTING: case MODE_EXPIRATION: case MODE_SWAPTYPE:
    case MODE_PROFITCALCMODE: case MODE_MARGINCALCMODE: case MODE_MARGININIT: case MODE_MARGINMAINTENANCE: return 0;
    case MODE_TRADEALLOWED: return s->tradeMode != cbsim::kTradeDisabled ? 1 : 0;
    case MODE_MINLOT: return s->volumeMin;
    case MODE_LOTSTEP: return s->volumeStep;
    case MODE_MAXLOT: return s->volumeMax;
    case MODE_MARGINHEDGED: return s->contractSize / 2;
    case MODE_MARGINREQUIRED: return cbsim::broker().marginOf(*s, 1.0, s->ask);
    case MODE_FREEZELEVEL: return s->freezeLevel;
    case MODE_CLOSEBY_ALLOWED: return 0;
    default: MqlSetError(4051); return 0;
  }
}
/** https://docs.mql4.com/series/refreshrates — quotes are always current here; returns true. */
inline bool RefreshRates() { return true; }
/** https://docs.mql4.com/check/istradecontextbusy — the harness has no trade context contention. */
inline bool IsTradeContextBusy() { return false; }
/** https://docs.mql4.com/check/istradeallowed — account allows trading and expert trading. */
inline bool IsTradeAllowed() { return cbsim::broker().tradeAllowed && cbsim::broker().tradeExpert; }
/** https://docs.mql4.com/check/isconnected */
inline bool IsConnected() { return cbsim::broker().connected; }
#endif

// ---------------------------------------------------------------------------------------------
// MQL5 trade functions — https://www.mql5.com/en/docs/trading
#ifdef __MQL5__
namespace cbmql {
struct PosSnap {
  bool valid = false;
  cbsim::Position p;
  double profit = 0, current = 0;
};
struct OrdSnap {
  bool valid = false;
  cbsim::Order o;
  double current = 0;
};
inline PosSnap &selPos() {
  static PosSnap s;
  return s;
}
inline OrdSnap &selOrd() {
  static OrdSnap s;
  return s;
}
inline std::vector<uint64_t> &selDeals() {
  static std::vector<uint64_t> v;
  return v;
}
inline std::vector<uint64_t> &selHistOrders() {
  static std::vector<uint64_t> v;
  return v;
}
inline bool snapPosition(cbsim::Position *p) {
  PosSnap &s = selPos();
  if (!p) {
    s.valid = false;
    MqlSetError(ERR_TRADE_POSITION_NOT_FOUND);
    return false;
  }
  cbsim::Symbol *sy = cbsim::broker().sym(p->symbol);
  s.valid = true;
  s.p = *p;
  s.profit = cbsim::broker().floating(*p);
  s.current = sy ? (p->type == cbsim::kBuy ? sy->bid : sy->ask) : 0;
  return true;
}
inline bool snapOrder(cbsim::Order *o) {
  OrdSnap &s = selOrd();
  if (!o) {
    s.valid = false;
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  cbsim::Symbol *sy = cbsim::broker().sym(o->symbol);
  s.valid = true;
  s.o = *o;
  s.current = sy ? (cbsim::isBuyType(o->type) ? sy->ask : sy->bid) : 0;
  return true;
}
inline const cbsim::Deal *histDeal(ulong ticket) {
  auto &sel = selDeals();
  if (std::find(sel.begin(), sel.end(), (uint64_t)ticket) == sel.end()) return nullptr;
  for (auto &d : cbsim::broker().deals)
    if (d.ticket == ticket) return &d;
  return nullptr;
}
inline const cbsim::Order *histOrder(ulong ticket) {
  auto &sel = selHistOrders();
  if (std::find(sel.begin(), sel.end(), (uint64_t)ticket) == sel.end()) return nullptr;
  for (auto &o : cbsim::broker().historyOrders)
    if (o.ticket == ticket) return &o;
  return nullptr;
}
inline bool orderInteger(const cbsim::Order &o, int id, long &v) {
  switch (id) {
    case ORDER_TICKET: v = (long)o.ticket; return true;
    case ORDER_TIME_SETUP: v = (long)(o.setupMsc / 1000); return true;
    case ORDER_TYPE: v = o.type; return true;
    case ORDER_STATE: v = o.state; return true;
    case ORDER_TIME_EXPIRATION: v = (long)o.expiration; return true;
    case ORDER_TIME_DONE: v = (long)(o.doneMsc / 1000); return true;
    case ORDER_TIME_SETUP_MSC: v = (long)o.setupMsc; return true;
    case ORDER_TIME_DONE_MSC: v = (long)o.doneMsc; return true;
    case ORDER_TYPE_FILLING: v = o.filling; return true;
    case ORDER_TYPE_TIME: v = o.typeTime; return true;
    case ORDER_MAGIC: v = (long)o.magic; return true;
    case ORDER_REASON: v = o.reason; return true;
    case ORDER_POSITION_ID: v = (long)o.positionId; return true;
    case ORDER_POSITION_BY_ID: v = (long)o.positionById; return true;
    default: return false;
  }
}
inline bool orderDouble(const cbsim::Order &o, double current, int id, double &v) {
  switch (id) {
    case ORDER_VOLUME_INITIAL: v = o.volInit; return true;
    case ORDER_VOLUME_CURRENT: v = o.volCur; return true;
    case ORDER_PRICE_OPEN: v = o.price; return true;
    case ORDER_SL: v = o.sl; return true;
    case ORDER_TP: v = o.tp; return true;
    case ORDER_PRICE_CURRENT: v = current; return true;
    case ORDER_PRICE_STOPLIMIT: v = o.stopLimit; return true;
    default: return false;
  }
}
inline bool orderString(const cbsim::Order &o, int id, std::string &v) {
  switch (id) {
    case ORDER_SYMBOL: v = o.symbol; return true;
    case ORDER_COMMENT: v = o.comment; return true;
    case ORDER_EXTERNAL_ID: v = ""; return true;
    default: return false;
  }
}
}  // namespace cbmql

/**
 * https://www.mql5.com/en/docs/trading/ordersend — synchronous request. Returns true only when
 * the request was accepted (retcode DONE 10009 / PLACED 10008); otherwise false with
 * ERR_TRADE_SEND_FAILED (4756) and the reason in result.retcode (10004 requote, 10013 invalid or
 * unknown symbol, 10014 volume, 10015 price, 10016 stops, 10019 money, 10030 filling, …).
 * Queues the transactions and, last, TRADE_TRANSACTION_REQUEST.
 */
inline bool OrderSend(const MqlTradeRequest &request, MqlTradeResult &result) {
  cbsim::Broker &b = cbsim::broker();
  cbsim::Req rq = cbmql::fromMql(request);
  cbsim::Outcome o = b.trade(rq, cbsim::Source::Expert);
  cbsim::Res rs;
  rs.retcode = cbsim::retcodeOf(o.err, request.action == TRADE_ACTION_PENDING);
  rs.requestId = b.nextRequestId++;
  rs.comment = o.err == cbsim::Err::Ok ? (request.action == TRADE_ACTION_PENDING ? "Request placed" : "Request executed") : cbsim::errText(o.err);
  if (o.err == cbsim::Err::Ok) {
    rs.order = request.action == TRADE_ACTION_SLTP ? 0 : o.order;
    rs.deal = o.deal;
    rs.volume = request.action == TRADE_ACTION_DEAL ? o.volume : (request.action == TRADE_ACTION_PENDING ? o.volume : 0);
    rs.price = request.action == TRADE_ACTION_DEAL ? o.price : 0;
  }
  cbsim::Symbol *s = b.sym(rq.symbol.empty() && rq.position ? (b.pos(rq.position) ? b.pos(rq.position)->symbol : "") : rq.symbol);
  if (s && (request.action == TRADE_ACTION_DEAL || o.err == cbsim::Err::Requote)) {
    rs.bid = s->bid;
    rs.ask = s->ask;
  }
  b.txRequest(rq, rs);
  result = MqlTradeResult();
  cbmql::toMql(rs, result);
  if (o.err != cbsim::Err::Ok) {
    MqlSetError(ERR_TRADE_SEND_FAILED);
    return false;
  }
  return true;
}

/**
 * https://www.mql5.com/en/docs/trading/ordercheck — runs the broker's checks on a copy of the
 * book (injected requotes/fill rejections are not consumed). retcode 0 when the request would pass.
 */
inline bool OrderCheck(const MqlTradeRequest &request, MqlTradeCheckResult &result) {
  cbsim::Broker copy = cbsim::broker();
  copy.statePath.clear();
  copy.requoteLeft = 0;
  copy.rejectFillLeft = 0;
  cbsim::Outcome o = copy.trade(cbmql::fromMql(request), cbsim::Source::Expert);
  result = MqlTradeCheckResult();
  result.retcode = o.err == cbsim::Err::Ok ? 0 : cbsim::retcodeOf(o.err);
  result.comment = string(o.err == cbsim::Err::Ok ? "Done" : cbsim::errText(o.err));
  result.balance = copy.balance;
  result.equity = copy.equity();
  result.profit = copy.profit();
  result.margin = copy.margin();
  result.margin_free = copy.freeMargin();
  result.margin_level = result.margin > 0 ? result.equity / result.margin * 100.0 : 0;
  if (o.err != cbsim::Err::Ok) {
    MqlSetError(ERR_TRADE_SEND_FAILED);
    return false;
  }
  return true;
}

/** https://www.mql5.com/en/docs/trading/positionstotal */
inline int PositionsTotal() { return (int)cbsim::broker().positions.size(); }
/** https://www.mql5.com/en/docs/trading/positiongetticket — selects the position; 0 when out of range. */
inline ulong PositionGetTicket(int index) {
  auto &ps = cbsim::broker().positions;
  if (index < 0 || index >= (int)ps.size()) {
    cbmql::selPos().valid = false;
    MqlSetError(ERR_TRADE_POSITION_NOT_FOUND);
    return 0;
  }
  cbmql::snapPosition(&ps[(size_t)index]);
  return ps[(size_t)index].ticket;
}
/** https://www.mql5.com/en/docs/trading/positionselectbyticket — copies the position's data for PositionGet*. */
inline bool PositionSelectByTicket(ulong ticket) { return cbmql::snapPosition(cbsim::broker().pos(ticket)); }
/** https://www.mql5.com/en/docs/trading/positionselect — first position of the symbol. */
inline bool PositionSelect(const string &symbol) { return cbmql::snapPosition(cbsim::broker().posBySymbol(symbol.utf8())); }

/** https://www.mql5.com/en/docs/trading/positiongetinteger (bool form) — from the selected copy. */
inline bool PositionGetInteger(int id, long &v) {
  const cbmql::PosSnap &s = cbmql::selPos();
  if (!s.valid) {
    MqlSetError(ERR_TRADE_POSITION_NOT_FOUND);
    return false;
  }
  const cbsim::Position &p = s.p;
  switch (id) {
    case POSITION_TICKET: v = (long)p.ticket; return true;
    case POSITION_TIME: v = (long)(p.timeMsc / 1000); return true;
    case POSITION_TIME_MSC: v = (long)p.timeMsc; return true;
    case POSITION_TIME_UPDATE: v = (long)(p.updateMsc / 1000); return true;
    case POSITION_TIME_UPDATE_MSC: v = (long)p.updateMsc; return true;
    case POSITION_TYPE: v = p.type; return true;
    case POSITION_MAGIC: v = (long)p.magic; return true;
    case POSITION_IDENTIFIER: v = (long)p.id; return true;
    case POSITION_REASON: v = p.reason; return true;
    default: MqlSetError(ERR_TRADE_WRONG_PROPERTY); return false;
  }
}
/** https://www.mql5.com/en/docs/trading/positiongetinteger */
inline long PositionGetInteger(int id) {
  long v = 0;
  PositionGetInteger(id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/positiongetdouble (bool form) — profit in account currency. */
inline bool PositionGetDouble(int id, double &v) {
  const cbmql::PosSnap &s = cbmql::selPos();
  if (!s.valid) {
    MqlSetError(ERR_TRADE_POSITION_NOT_FOUND);
    return false;
  }
  switch (id) {
    case POSITION_VOLUME: v = s.p.volume; return true;
    case POSITION_PRICE_OPEN: v = s.p.priceOpen; return true;
    case POSITION_SL: v = s.p.sl; return true;
    case POSITION_TP: v = s.p.tp; return true;
    case POSITION_PRICE_CURRENT: v = s.current; return true;
    case POSITION_SWAP: v = 0; return true;
    case POSITION_PROFIT: v = s.profit; return true;
    default: MqlSetError(ERR_TRADE_WRONG_PROPERTY); return false;
  }
}
/** https://www.mql5.com/en/docs/trading/positiongetdouble */
inline double PositionGetDouble(int id) {
  double v = 0;
  PositionGetDouble(id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/positiongetstring (bool form) */
inline bool PositionGetString(int id, string &v) {
  const cbmql::PosSnap &s = cbmql::selPos();
  if (!s.valid) {
    MqlSetError(ERR_TRADE_POSITION_NOT_FOUND);
    return false;
  }
  switch (id) {
    case POSITION_SYMBOL: v = string(s.p.symbol); return true;
    case POSITION_COMMENT: v = string(s.p.comment); return true;
    case POSITION_EXTERNAL_ID: v = string(); return true;
    default: MqlSetError(ERR_TRADE_WRONG_PROPERTY); return false;
  }
}
/** https://www.mql5.com/en/docs/trading/positiongetstring */
inline string PositionGetString(int id) {
  string v;
  PositionGetString(id, v);
  return v;
}

/** https://www.mql5.com/en/docs/trading/orderstotal — pending orders. */
inline int OrdersTotal() { return (int)cbsim::broker().orders.size(); }
/** https://www.mql5.com/en/docs/trading/ordergetticket — selects the order; 0 when out of range. */
inline ulong OrderGetTicket(int index) {
  auto &os = cbsim::broker().orders;
  if (index < 0 || index >= (int)os.size()) {
    cbmql::selOrd().valid = false;
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return 0;
  }
  cbmql::snapOrder(&os[(size_t)index]);
  return os[(size_t)index].ticket;
}
/** https://www.mql5.com/en/docs/trading/orderselect — copies a pending order's data for OrderGet*. */
inline bool OrderSelect(ulong ticket) { return cbmql::snapOrder(cbsim::broker().ord(ticket)); }
/** https://www.mql5.com/en/docs/trading/ordergetinteger (bool form) */
inline bool OrderGetInteger(int id, long &v) {
  const cbmql::OrdSnap &s = cbmql::selOrd();
  if (!s.valid) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  if (!cbmql::orderInteger(s.o, id, v)) {
    MqlSetError(ERR_TRADE_WRONG_PROPERTY);
    return false;
  }
  return true;
}
/** https://www.mql5.com/en/docs/trading/ordergetinteger */
inline long OrderGetInteger(int id) {
  long v = 0;
  OrderGetInteger(id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/ordergetdouble (bool form) */
inline bool OrderGetDouble(int id, double &v) {
  const cbmql::OrdSnap &s = cbmql::selOrd();
  if (!s.valid) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  if (!cbmql::orderDouble(s.o, s.current, id, v)) {
    MqlSetError(ERR_TRADE_WRONG_PROPERTY);
    return false;
  }
  return true;
}
/** https://www.mql5.com/en/docs/trading/ordergetdouble */
inline double OrderGetDouble(int id) {
  double v = 0;
  OrderGetDouble(id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/ordergetstring (bool form) */
inline bool OrderGetString(int id, string &v) {
  const cbmql::OrdSnap &s = cbmql::selOrd();
  if (!s.valid) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  std::string t;
  if (!cbmql::orderString(s.o, id, t)) {
    MqlSetError(ERR_TRADE_WRONG_PROPERTY);
    return false;
  }
  v = string(t);
  return true;
}
/** https://www.mql5.com/en/docs/trading/ordergetstring */
inline string OrderGetString(int id) {
  string v;
  OrderGetString(id, v);
  return v;
}

/**
 * https://www.mql5.com/en/docs/trading/historyselect — selects deals (by deal time) and history
 * orders (by done time) with from ≤ time ≤ to, seconds of server time. A snapshot: later deals
 * need a new call.
 */
inline bool HistorySelect(datetime from_date, datetime to_date) {
  auto &ds = cbmql::selDeals();
  auto &os = cbmql::selHistOrders();
  ds.clear();
  os.clear();
  for (auto &d : cbsim::broker().deals) {
    long t = (long)(d.timeMsc / 1000);
    if (t >= from_date && t <= to_date) ds.push_back(d.ticket);
  }
  for (auto &o : cbsim::broker().historyOrders) {
    long t = (long)(o.doneMsc / 1000);
    if (t >= from_date && t <= to_date) os.push_back(o.ticket);
  }
  return true;
}
/** https://www.mql5.com/en/docs/trading/historyselectbyposition — deals and orders of one position id. */
inline bool HistorySelectByPosition(long position_id) {
  auto &ds = cbmql::selDeals();
  auto &os = cbmql::selHistOrders();
  ds.clear();
  os.clear();
  for (auto &d : cbsim::broker().deals)
    if ((long)d.positionId == position_id) ds.push_back(d.ticket);
  for (auto &o : cbsim::broker().historyOrders)
    if ((long)o.positionId == position_id) os.push_back(o.ticket);
  return true;
}
/** https://www.mql5.com/en/docs/trading/historydealstotal — deals in the current selection. */
inline int HistoryDealsTotal() { return (int)cbmql::selDeals().size(); }
/** https://www.mql5.com/en/docs/trading/historydealgetticket — 0 when out of range. */
inline ulong HistoryDealGetTicket(int index) {
  auto &ds = cbmql::selDeals();
  if (index < 0 || index >= (int)ds.size()) {
    MqlSetError(ERR_TRADE_DEAL_NOT_FOUND);
    return 0;
  }
  return ds[(size_t)index];
}
/** https://www.mql5.com/en/docs/trading/historydealselect — replaces the deal selection with this one deal. */
inline bool HistoryDealSelect(ulong ticket) {
  auto &ds = cbmql::selDeals();
  ds.clear();
  for (auto &d : cbsim::broker().deals)
    if (d.ticket == ticket) {
      ds.push_back(d.ticket);
      return true;
    }
  MqlSetError(ERR_TRADE_DEAL_NOT_FOUND);
  return false;
}
/** https://www.mql5.com/en/docs/trading/historydealgetinteger (bool form) — the deal must be selected. */
inline bool HistoryDealGetInteger(ulong ticket, int id, long &v) {
  const cbsim::Deal *d = cbmql::histDeal(ticket);
  if (!d) {
    MqlSetError(ERR_TRADE_DEAL_NOT_FOUND);
    return false;
  }
  switch (id) {
    case DEAL_TICKET: v = (long)d->ticket; return true;
    case DEAL_ORDER: v = (long)d->order; return true;
    case DEAL_TIME: v = (long)(d->timeMsc / 1000); return true;
    case DEAL_TIME_MSC: v = (long)d->timeMsc; return true;
    case DEAL_TYPE: v = d->type; return true;
    case DEAL_ENTRY: v = d->entry; return true;
    case DEAL_MAGIC: v = (long)d->magic; return true;
    case DEAL_REASON: v = d->reason; return true;
    case DEAL_POSITION_ID: v = (long)d->positionId; return true;
    default: MqlSetError(ERR_TRADE_WRONG_PROPERTY); return false;
  }
}
/** https://www.mql5.com/en/docs/trading/historydealgetinteger */
inline long HistoryDealGetInteger(ulong ticket, int id) {
  long v = 0;
  HistoryDealGetInteger(ticket, id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/historydealgetdouble (bool form) — profit in account currency. */
inline bool HistoryDealGetDouble(ulong ticket, int id, double &v) {
  const cbsim::Deal *d = cbmql::histDeal(ticket);
  if (!d) {
    MqlSetError(ERR_TRADE_DEAL_NOT_FOUND);
    return false;
  }
  switch (id) {
    case DEAL_VOLUME: v = d->volume; return true;
    case DEAL_PRICE: v = d->price; return true;
    case DEAL_COMMISSION: case DEAL_SWAP: case DEAL_FEE: v = 0; return true;
    case DEAL_PROFIT: v = d->profit; return true;
    case DEAL_SL: v = d->sl; return true;
    case DEAL_TP: v = d->tp; return true;
    default: MqlSetError(ERR_TRADE_WRONG_PROPERTY); return false;
  }
}
/** https://www.mql5.com/en/docs/trading/historydealgetdouble */
inline double HistoryDealGetDouble(ulong ticket, int id) {
  double v = 0;
  HistoryDealGetDouble(ticket, id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/historydealgetstring (bool form) */
inline bool HistoryDealGetString(ulong ticket, int id, string &v) {
  const cbsim::Deal *d = cbmql::histDeal(ticket);
  if (!d) {
    MqlSetError(ERR_TRADE_DEAL_NOT_FOUND);
    return false;
  }
  switch (id) {
    case DEAL_SYMBOL: v = string(d->symbol); return true;
    case DEAL_COMMENT: v = string(d->comment); return true;
    case DEAL_EXTERNAL_ID: v = string(); return true;
    default: MqlSetError(ERR_TRADE_WRONG_PROPERTY); return false;
  }
}
/** https://www.mql5.com/en/docs/trading/historydealgetstring */
inline string HistoryDealGetString(ulong ticket, int id) {
  string v;
  HistoryDealGetString(ticket, id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/historyorderstotal */
inline int HistoryOrdersTotal() { return (int)cbmql::selHistOrders().size(); }
/** https://www.mql5.com/en/docs/trading/historyordergetticket — 0 when out of range. */
inline ulong HistoryOrderGetTicket(int index) {
  auto &os = cbmql::selHistOrders();
  if (index < 0 || index >= (int)os.size()) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return 0;
  }
  return os[(size_t)index];
}
/** https://www.mql5.com/en/docs/trading/historyorderselect — replaces the order selection with this one order. */
inline bool HistoryOrderSelect(ulong ticket) {
  auto &os = cbmql::selHistOrders();
  os.clear();
  for (auto &o : cbsim::broker().historyOrders)
    if (o.ticket == ticket) {
      os.push_back(o.ticket);
      return true;
    }
  MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
  return false;
}
/** https://www.mql5.com/en/docs/trading/historyordergetinteger (bool form) */
inline bool HistoryOrderGetInteger(ulong ticket, int id, long &v) {
  const cbsim::Order *o = cbmql::histOrder(ticket);
  if (!o) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  if (!cbmql::orderInteger(*o, id, v)) {
    MqlSetError(ERR_TRADE_WRONG_PROPERTY);
    return false;
  }
  return true;
}
/** https://www.mql5.com/en/docs/trading/historyordergetinteger */
inline long HistoryOrderGetInteger(ulong ticket, int id) {
  long v = 0;
  HistoryOrderGetInteger(ticket, id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/historyordergetdouble (bool form) */
inline bool HistoryOrderGetDouble(ulong ticket, int id, double &v) {
  const cbsim::Order *o = cbmql::histOrder(ticket);
  if (!o) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  if (!cbmql::orderDouble(*o, o->priceCurrent, id, v)) {
    MqlSetError(ERR_TRADE_WRONG_PROPERTY);
    return false;
  }
  return true;
}
/** https://www.mql5.com/en/docs/trading/historyordergetdouble */
inline double HistoryOrderGetDouble(ulong ticket, int id) {
  double v = 0;
  HistoryOrderGetDouble(ticket, id, v);
  return v;
}
/** https://www.mql5.com/en/docs/trading/historyordergetstring (bool form) */
inline bool HistoryOrderGetString(ulong ticket, int id, string &v) {
  const cbsim::Order *o = cbmql::histOrder(ticket);
  if (!o) {
    MqlSetError(ERR_TRADE_ORDER_NOT_FOUND);
    return false;
  }
  std::string t;
  if (!cbmql::orderString(*o, id, t)) {
    MqlSetError(ERR_TRADE_WRONG_PROPERTY);
    return false;
  }
  v = string(t);
  return true;
}
/** https://www.mql5.com/en/docs/trading/historyordergetstring */
inline string HistoryOrderGetString(ulong ticket, int id) {
  string v;
  HistoryOrderGetString(ticket, id, v);
  return v;
}
#endif  // __MQL5__

// ---------------------------------------------------------------------------------------------
// MQL4 trade functions — https://docs.mql4.com/trading
#ifdef __MQL4__
namespace cbmql {
/** The order copied by OrderSelect (MQL4 getters read this copy). */
struct Mt4Sel {
  bool valid = false;
  cbsim::Closed c;  // for open orders: closePrice = current price, profit = floating
};
inline Mt4Sel &mt4Sel() {
  static Mt4Sel s;
  return s;
}
/** Open positions and pending orders as MQL4 "trades", ascending by ticket. */
inline std::vector<cbsim::Closed> mt4Trades() {
  cbsim::Broker &b = cbsim::broker();
  std::vector<cbsim::Closed> out;
  for (auto &p : b.positions) {
    cbsim::Closed c;
    cbsim::Symbol *s = b.sym(p.symbol);
    c.ticket = p.ticket;
    c.symbol = p.symbol;
    c.comment = p.comment;
    c.type = p.type;
    c.lots = p.volume;
    c.openPrice = p.priceOpen;
    c.closePrice = s ? (p.type == cbsim::kBuy ? s->bid : s->ask) : 0;
    c.sl = p.sl;
    c.tp = p.tp;
    c.profit = b.floating(p);
    c.openTime = p.timeMsc / 1000;
    c.magic = p.magic;
    out.push_back(c);
  }
  for (auto &o : b.orders) {
    cbsim::Closed c;
    cbsim::Symbol *s = b.sym(o.symbol);
    c.ticket = o.ticket;
    c.symbol = o.symbol;
    c.comment = o.comment;
    c.type = o.type;
    c.lots = o.volCur;
    c.openPrice = o.price;
    c.closePrice = s ? (cbsim::isBuyType(o.type) ? s->ask : s->bid) : 0;
    c.sl = o.sl;
    c.tp = o.tp;
    c.openTime = o.setupMsc / 1000;
    c.expiration = o.expiration;
    c.magic = o.magic;
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const cbsim::Closed &x, const cbsim::Closed &y) { return x.ticket < y.ticket; });
  return out;
}
inline bool fail4(cbsim::Err e) {
  MqlSetError(cbsim::mt4ErrorOf(e));
  return false;
}
inline const cbsim::Closed &sel() {
  if (!mt4Sel().valid) MqlSetError(ERR_NO_ORDER_SELECTED);
  return mt4Sel().c;
}
}  // namespace cbmql

/**
 * https://docs.mql4.com/trading/ordersend — market (OP_BUY/OP_SELL at Ask/Bid; `price` and
 * `slippage` in points are checked for instant/request execution) or pending order. Returns the
 * ticket, or -1 with GetLastError(): 138 requote, 129 price, 130 stops, 131 volume, 133 trade
 * disabled, 134 money, 4106 unknown symbol, 3 bad parameters, 147 expiration.
 */
inline int OrderSend(const string &symbol, int cmd, double volume, double price, int slippage, double stoploss, double takeprofit,
                     const string &comment = string(), int magic = 0, datetime expiration = 0, color arrow_color = clrNONE) {
  (void)arrow_color;
  cbsim::Req rq;
  rq.symbol = symbol.utf8();
  rq.type = cmd;
  rq.volume = volume;
  rq.price = price;
  rq.deviation = slippage < 0 ? 0 : (uint64_t)slippage;
  rq.sl = stoploss;
  rq.tp = takeprofit;
  rq.comment = comment.utf8();
  rq.magic = (uint64_t)(int64_t)magic;
  rq.expiration = (int64_t)expiration;
  if (cmd == OP_BUY || cmd == OP_SELL) rq.action = cbsim::kActDeal;
  else if (cmd >= OP_BUYLIMIT && cmd <= OP_SELLSTOP) {
    rq.action = cbsim::kActPending;
    rq.typeTime = expiration > 0 ? cbsim::kTimeSpecified : cbsim::kTimeGtc;
  } else {
    MqlSetError(ERR_INVALID_TRADE_PARAMETERS);
    return -1;
  }
  cbsim::Outcome o = cbsim::broker().trade(rq, cbsim::Source::Expert);
  if (o.err != cbsim::Err::Ok) {
    cbmql::fail4(o.err);
    return -1;
  }
  return (int)(rq.action == cbsim::kActDeal ? o.position : o.order);
}

/**
 * https://docs.mql4.com/trading/orderclose — closes `lots` of a market order at `price` (Bid for
 * buys, Ask for sells; checked against `slippage` points for instant execution). A partial close
 * leaves the closed part in history with comment "to #<new>" and the remainder open under a NEW
 * ticket with comment "from #<old>" (same open price/time, SL/TP, magic).
 */
inline bool OrderClose(int ticket, double lots, double price, int slippage, color arrow_color = clrNONE) {
  (void)arrow_color;
  cbsim::Broker &b = cbsim::broker();
  cbsim::Position *p = b.pos((uint64_t)ticket);
  if (!p) return cbmql::fail4(cbsim::Err::PositionClosed);
  cbsim::Req rq;
  rq.action = cbsim::kActDeal;
  rq.position = p->ticket;
  rq.symbol = p->symbol;
  rq.type = p->type == cbsim::kBuy ? cbsim::kSell : cbsim::kBuy;
  rq.volume = lots;
  rq.price = price;
  rq.deviation = slippage < 0 ? 0 : (uint64_t)slippage;
  cbsim::Outcome o = b.trade(rq, cbsim::Source::Expert);
  if (o.err != cbsim::Err::Ok) return cbmql::fail4(o.err);
  return true;
}

/** https://docs.mql4.com/trading/ordermodify — SL/TP of a market order; price, SL, TP, expiration of a pending one. ERR_NO_RESULT (1) when nothing changes. */
inline bool OrderModify(int ticket, double price, double stoploss, double takeprofit, datetime expiration, color arrow_color = clrNONE) {
  (void)arrow_color;
  cbsim::Broker &b = cbsim::broker();
  cbsim::Req rq;
  rq.sl = stoploss;
  rq.tp = takeprofit;
  if (b.pos((uint64_t)ticket)) {
    rq.action = cbsim::kActSltp;
    rq.position = (uint64_t)ticket;
  } else if (b.ord((uint64_t)ticket)) {
    rq.action = cbsim::kActModify;
    rq.order = (uint64_t)ticket;
    rq.price = price;
    rq.expiration = (int64_t)expiration;
  } else {
    return cbmql::fail4(cbsim::Err::InvalidOrder);
  }
  cbsim::Outcome o = b.trade(rq, cbsim::Source::Expert);
  if (o.err != cbsim::Err::Ok) return cbmql::fail4(o.err);
  return true;
}

/** https://docs.mql4.com/trading/orderdelete — deletes a pending order (ERR_INVALID_TICKET for market orders). */
inline bool OrderDelete(int ticket, color arrow_color = clrNONE) {
  (void)arrow_color;
  cbsim::Req rq;
  rq.action = cbsim::kActRemove;
  rq.order = (uint64_t)ticket;
  cbsim::Outcome o = cbsim::broker().trade(rq, cbsim::Source::Expert);
  if (o.err != cbsim::Err::Ok) return cbmql::fail4(o.err);
  return true;
}

/**
 * https://docs.mql4.com/trading/orderselect — by position in MODE_TRADES (open and pending,
 * ascending ticket) or MODE_HISTORY (closed/deleted, in closing order), or by ticket (trades
 * first, then history; `pool` ignored). Copies the order for the Order* getters.
 */
inline bool OrderSelect(int index, int select, int pool = MODE_TRADES) {
  cbmql::Mt4Sel &s = cbmql::mt4Sel();
  s.valid = false;
  cbsim::Broker &b = cbsim::broker();
  if (select == SELECT_BY_TICKET) {
    for (auto &c : cbmql::mt4Trades())
      if (c.ticket == (uint64_t)(uint32_t)index) {
        s.c = c;
        s.valid = true;
        return true;
      }
    for (auto &c : b.closed)
      if (c.ticket == (uint64_t)(uint32_t)index) {
        s.c = c;
        s.valid = true;
        return true;
      }
    MqlSetError(ERR_INVALID_TICKET);
    return false;
  }
  if (pool == MODE_HISTORY) {
    if (index < 0 || index >= (int)b.closed.size()) {
      MqlSetError(ERR_INVALID_TICKET);
      return false;
    }
    s.c = b.closed[(size_t)index];
    s.valid = true;
    return true;
  }
  std::vector<cbsim::Closed> t = cbmql::mt4Trades();
  if (index < 0 || index >= (int)t.size()) {
    MqlSetError(ERR_INVALID_TICKET);
    return false;
  }
  s.c = t[(size_t)index];
  s.valid = true;
  return true;
}
/** https://docs.mql4.com/trading/orderstotal — market and pending orders. */
inline int OrdersTotal() { return (int)(cbsim::broker().positions.size() + cbsim::broker().orders.size()); }
/** https://docs.mql4.com/trading/ordershistorytotal — closed and deleted orders. */
inline int OrdersHistoryTotal() { return (int)cbsim::broker().closed.size(); }
/** https://docs.mql4.com/trading/orderticket */
inline int OrderTicket() { return (int)cbmql::sel().ticket; }
/** https://docs.mql4.com/trading/ordersymbol */
inline string OrderSymbol() { return string(cbmql::sel().symbol); }
/** https://docs.mql4.com/trading/ordertype — OP_BUY … OP_SELLSTOP. */
inline int OrderType() { return cbmql::sel().type; }
/** https://docs.mql4.com/trading/orderlots */
inline double OrderLots() { return cbmql::sel().lots; }
/** https://docs.mql4.com/trading/orderopenprice */
inline double OrderOpenPrice() { return cbmql::sel().openPrice; }
/** https://docs.mql4.com/trading/ordercloseprice — current price for open orders. */
inline double OrderClosePrice() { return cbmql::sel().closePrice; }
/** https://docs.mql4.com/trading/orderstoploss */
inline double OrderStopLoss() { return cbmql::sel().sl; }
/** https://docs.mql4.com/trading/ordertakeprofit */
inline double OrderTakeProfit() { return cbmql::sel().tp; }
/** https://docs.mql4.com/trading/ordermagicnumber */
inline int OrderMagicNumber() { return (int)cbmql::sel().magic; }
/** https://docs.mql4.com/trading/ordercomment */
inline string OrderComment() { return string(cbmql::sel().comment); }
/** https://docs.mql4.com/trading/orderopentime — server time, seconds. */
inline datetime OrderOpenTime() { return (datetime)cbmql::sel().openTime; }
/** https://docs.mql4.com/trading/orderclosetime — 0 for open orders. */
inline datetime OrderCloseTime() { return (datetime)cbmql::sel().closeTime; }
/** https://docs.mql4.com/trading/orderprofit — account currency, without swap and commission. */
inline double OrderProfit() { return cbmql::sel().profit; }
/** https://docs.mql4.com/trading/ordercommission — always 0 here. */
inline double OrderCommission() { return 0; }
/** https://docs.mql4.com/trading/orderswap — always 0 here. */
inline double OrderSwap() { return 0; }
/** https://docs.mql4.com/trading/orderexpiration */
inline datetime OrderExpiration() { return (datetime)cbmql::sel().expiration; }
#endif  // __MQL4__
