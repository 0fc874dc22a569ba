// Simulated broker — the trading world in plain C++17 (std types only): account, symbols and
// quotes, positions, pending orders, history (MT5 orders + deals, MT4 closed orders), the ticket
// counter, trade execution with the broker's checks, price-driven triggers (pending orders,
// SL/TP), MT5 trade transactions, the control channel commands and the persisted state file.
// runtime/broker.h maps the MQL4/MQL5 API onto this; nothing here depends on mql.h.
//
// Behaviour (DESIGN.md §4–§5):
//  - Market orders fill at Ask (buy) / Bid (sell), whole volume. Pending orders trigger on a
//    `price` line (buy limit Ask ≤ price, sell limit Bid ≥ price, buy stop Ask ≥ price, sell stop
//    Bid ≤ price) and fill at their own price; MT5 position ticket = order ticket, MT4 keeps the
//    ticket. SL/TP are checked after triggers (buy: Bid, sell: Ask) and close at the SL/TP price
//    with reason SL/TP; then stop-out (reason SO) while equity/margin ≤ `stopOut` % (default 50).
//  - Money: profit = Δprice / tickSize × tickValue × lots; margin = lots × price × tickValue /
//    tickSize / leverage; equity = balance + credit + floating profit.
//  - Checks, in order: symbol (MT5 10013 / MT4 4106), type, trade mode (10017/10042-10044 / 133),
//    volume min/max/step (10014 / 131), close volume (10038 / 131), filling (EA, MT5, market only:
//    FOK needs bit 1, IOC bit 2, RETURN exchange execution → 10030), prices on the tick grid and
//    stops vs. market with stopsLevel (10015, 10016 / 129, 130), freeze level (10029 / 145),
//    injected requote (EA, market requests only: 10004 / 138), instant/request execution
//    deviation (10004 / 138), free margin (10019 / 134). Requests by hand (control channel) skip
//    the injections, the filling check and the deviation check.
//  - Netting (MT5, "marginMode": "netting"): one position per symbol; an opposite deal reduces
//    (DEAL_ENTRY_OUT), closes, or reverses it (DEAL_ENTRY_INOUT, same ticket and identifier).
//  - MT5 transactions are queued per operation in this order: market/close/trigger/stop
//    ORDER_ADD (not for a triggered pending order, which already exists), ORDER_DELETE,
//    HISTORY_ADD, DEAL_ADD; SL/TP change POSITION; pending place ORDER_ADD (state PLACED);
//    pending modify ORDER_UPDATE; cancel/expiry ORDER_DELETE, HISTORY_ADD; then REQUEST for the
//    EA's own requests (broker.h adds it after the chain).
//  - The book (balance, quotes, positions, orders, history, next ticket) is rewritten to
//    `stateFile` (tmp + rename) after every change and read back at start.
//  - broker.json keys beyond DESIGN.md §5 (all optional): name, credit, tradeAllowed, tradeExpert,
//    connected, utcOffsetSec, ticketStart (default 1000), bigTickets (MT5: start above 2^53),
//    marginCall (100), stopOut (50); per symbol: description, currencyBase, currencyProfit,
//    currencyMargin, selected (true).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "broker_json.h"

namespace cbsim {

// Values below are the MQL5 enum values (ENUM_ORDER_TYPE, ENUM_DEAL_*, ...); MQL4's OP_* equal
// ORDER_TYPE_BUY..SELL_STOP.
enum : int { kBuy = 0, kSell = 1, kBuyLimit = 2, kSellLimit = 3, kBuyStop = 4, kSellStop = 5, kBuyStopLimit = 6, kSellStopLimit = 7 };
enum : int { kActDeal = 1, kActPending = 5, kActSltp = 6, kActModify = 7, kActRemove = 8, kActCloseBy = 10 };
enum : int { kStateStarted = 0, kStatePlaced = 1, kStateCanceled = 2, kStatePartial = 3, kStateFilled = 4, kStateRejected = 5, kStateExpired = 6 };
enum : int { kEntryIn = 0, kEntryOut = 1, kEntryInOut = 2, kEntryOutBy = 3 };
enum : int { kReasonClient = 0, kReasonExpert = 3, kReasonSl = 4, kReasonTp = 5, kReasonSo = 6 };
enum : int { kTxOrderAdd = 0, kTxOrderUpdate = 1, kTxOrderDelete = 2, kTxHistoryAdd = 3, kTxHistoryUpdate = 4, kTxHistoryDelete = 5, kTxDealAdd = 6, kTxDealUpdate = 7, kTxDealDelete = 8, kTxPosition = 9, kTxRequest = 10 };
enum : int { kFillFok = 0, kFillIoc = 1, kFillReturn = 2, kFillBoc = 3 };
enum : int { kExeRequest = 0, kExeInstant = 1, kExeMarket = 2, kExeExchange = 3 };
enum : int { kTradeDisabled = 0, kTradeLongOnly = 1, kTradeShortOnly = 2, kTradeCloseOnly = 3, kTradeFull = 4 };
enum : int { kTimeGtc = 0, kTimeDay = 1, kTimeSpecified = 2, kTimeSpecifiedDay = 3 };

/** Outcome class of a trade operation, mapped to an MT5 retcode or an MT4 error code. */
enum class Err {
  Ok, Invalid, UnknownSymbol, Volume, Price, PendingPrice, Stops, Disabled, NoMoney, Requote,
  Fill, NoChanges, Frozen, PositionClosed, CloseVolume, LongOnly, ShortOnly, CloseOnly,
  InvalidOrder, Expiration, Unsupported
};

/** MT5 TRADE_RETCODE_* for an outcome (`placed` picks 10008 over 10009 for new pending orders). */
inline unsigned retcodeOf(Err e, bool placed = false) {
  switch (e) {
    case Err::Ok: return placed ? 10008u : 10009u;
    case Err::Invalid: case Err::UnknownSymbol: case Err::Unsupported: return 10013;
    case Err::Volume: return 10014;
    case Err::Price: case Err::PendingPrice: return 10015;
    case Err::Stops: return 10016;
    case Err::Disabled: return 10017;
    case Err::NoMoney: return 10019;
    case Err::Requote: return 10004;
    case Err::Fill: return 10030;
    case Err::NoChanges: return 10025;
    case Err::Frozen: return 10029;
    case Err::PositionClosed: return 10036;
    case Err::CloseVolume: return 10038;
    case Err::LongOnly: return 10042;
    case Err::ShortOnly: return 10043;
    case Err::CloseOnly: return 10044;
    case Err::InvalidOrder: return 10035;
    case Err::Expiration: return 10022;
  }
  return 10013;
}

/** MQL4 error code (docs.mql4.com/constants/errorswarnings/errorcodes) for an outcome; 0 = success. */
inline int mt4ErrorOf(Err e) {
  switch (e) {
    case Err::Ok: return 0;
    case Err::Invalid: case Err::Unsupported: case Err::Fill: return 3;  // ERR_INVALID_TRADE_PARAMETERS
    case Err::UnknownSymbol: return 4106;                                // ERR_UNKNOWN_SYMBOL
    case Err::Volume: case Err::CloseVolume: return 131;                  // ERR_INVALID_TRADE_VOLUME
    case Err::Price: return 129;                                          // ERR_INVALID_PRICE
    case Err::PendingPrice: case Err::Stops: return 130;                  // ERR_INVALID_STOPS
    case Err::Disabled: case Err::LongOnly: case Err::ShortOnly: case Err::CloseOnly: return 133;  // ERR_TRADE_DISABLED
    case Err::NoMoney: return 134;                                        // ERR_NOT_ENOUGH_MONEY
    case Err::Requote: return 138;                                        // ERR_REQUOTE
    case Err::NoChanges: return 1;                                        // ERR_NO_RESULT
    case Err::Frozen: return 145;                                         // ERR_TRADE_MODIFY_DENIED
    case Err::PositionClosed: case Err::InvalidOrder: return 4108;        // ERR_INVALID_TICKET
    case Err::Expiration: return 147;                                     // ERR_TRADE_EXPIRATION_DENIED
  }
  return 3;
}

/** Short English text of an outcome (MqlTradeResult.comment and control answers). */
inline const char *errText(Err e) {
  switch (e) {
    case Err::Ok: return "Request executed";
    case Err::Invalid: return "Invalid request";
    case Err::UnknownSymbol: return "Unknown symbol";
    case Err::Volume: return "Invalid volume";
    case Err::Price: return "Invalid price";
    case Err::PendingPrice: return "Invalid price";
    case Err::Stops: return "Invalid stops";
    case Err::Disabled: return "Trade disabled";
    case Err::NoMoney: return "No money";
    case Err::Requote: return "Requote";
    case Err::Fill: return "Unsupported filling mode";
    case Err::NoChanges: return "No changes";
    case Err::Frozen: return "Frozen";
    case Err::PositionClosed: return "Position doesn't exist";
    case Err::CloseVolume: return "Invalid close volume";
    case Err::LongOnly: return "Long only";
    case Err::ShortOnly: return "Short only";
    case Err::CloseOnly: return "Close only";
    case Err::InvalidOrder: return "Invalid order";
    case Err::Expiration: return "Invalid expiration";
    case Err::Unsupported: return "Unsupported request";
  }
  return "Invalid request";
}

struct Symbol {
  std::string name, description, currencyBase, currencyProfit, currencyMargin;
  int digits = 5;
  double point = 0.00001, bid = 0, ask = 0, volumeMin = 0.01, volumeStep = 0.01, volumeMax = 100;
  double contractSize = 100000, tickSize = 0.00001, tickValue = 1;
  int stopsLevel = 0, freezeLevel = 0, tradeMode = kTradeFull, fillingMode = 1, exeMode = kExeMarket;
  bool selected = true;
  int64_t quoteMsc = 0;
  /** Decimals of the volume step (0.01 → 2), for volume text. */
  int volumeDigits() const {
    int d = 0;
    double s = volumeStep;
    while (d < 8 && std::fabs(s - std::round(s)) > 1e-9) { s *= 10; d++; }
    return d;
  }
};

struct Position {
  uint64_t ticket = 0, id = 0;
  std::string symbol, comment;
  int type = kBuy, reason = kReasonClient;
  double volume = 0, priceOpen = 0, sl = 0, tp = 0;
  int64_t timeMsc = 0, updateMsc = 0, magic = 0;
};

struct Order {
  uint64_t ticket = 0, positionId = 0, positionById = 0;
  std::string symbol, comment;
  int type = kBuy, state = kStateStarted, reason = kReasonClient, filling = kFillFok, typeTime = kTimeGtc;
  double volInit = 0, volCur = 0, price = 0, stopLimit = 0, sl = 0, tp = 0, priceCurrent = 0;
  int64_t setupMsc = 0, doneMsc = 0, expiration = 0, magic = 0;
};

struct Deal {
  uint64_t ticket = 0, order = 0, positionId = 0;
  std::string symbol, comment;
  int type = kBuy, entry = kEntryIn, reason = kReasonClient;
  double volume = 0, price = 0, profit = 0, sl = 0, tp = 0;
  int64_t timeMsc = 0, magic = 0;
};

/** MT4 history entry: a closed position or a deleted/expired pending order. */
struct Closed {
  uint64_t ticket = 0;
  std::string symbol, comment;
  int type = kBuy;
  double lots = 0, openPrice = 0, closePrice = 0, sl = 0, tp = 0, profit = 0;
  int64_t openTime = 0, closeTime = 0, expiration = 0, magic = 0;  // seconds (broker time)
};

/** MqlTradeRequest in std types. */
struct Req {
  int action = 0, type = 0, filling = 0, typeTime = 0;
  uint64_t magic = 0, order = 0, deviation = 0, position = 0, positionBy = 0;
  std::string symbol, comment;
  double volume = 0, price = 0, stoplimit = 0, sl = 0, tp = 0;
  int64_t expiration = 0;
};

/** MqlTradeResult in std types. */
struct Res {
  unsigned retcode = 0, requestId = 0;
  uint64_t deal = 0, order = 0;
  double volume = 0, price = 0, bid = 0, ask = 0;
  std::string comment;
  int retcodeExternal = 0;
};

/** MqlTradeTransaction (+ request/result, meaningful for kTxRequest only) in std types. */
struct Txn {
  int type = 0, orderType = 0, orderState = 0, dealType = 0, timeType = 0;
  uint64_t deal = 0, order = 0, position = 0, positionBy = 0;
  std::string symbol;
  int64_t expiration = 0;
  double price = 0, priceTrigger = 0, sl = 0, tp = 0, volume = 0;
  Req req;
  Res res;
};

/** Who asks: the EA (MQL API: requote/fill injections apply, REQUEST transaction) or the control channel / a hand. */
enum class Source { Expert, Client };

/** What one trade operation produced. */
struct Outcome {
  Err err = Err::Ok;
  uint64_t order = 0, deal = 0, position = 0, remaining = 0;  // remaining: MT4 remainder ticket
  double price = 0, volume = 0;
};

inline bool isBuyType(int t) { return t == kBuy || t == kBuyLimit || t == kBuyStop || t == kBuyStopLimit; }
inline bool isPendingType(int t) { return t >= kBuyLimit && t <= kSellStop; }

/** The simulated broker. One instance per process (see `broker()`). */
class Broker {
 public:
  bool mt5 = true;
  // account
  int64_t login = 0, leverage = 100, utcOffsetSec = 0;
  std::string server = "Sim-Demo", company = "Sim", currency = "USD", name = "Simulated";
  double balance = 0, credit = 0, soCall = 100, soLevel = 50;  // margin call / stop-out levels, percent
  bool netting = false, tradeAllowed = true, tradeExpert = true, connected = true;
  // book
  std::vector<Symbol> symbols;
  std::vector<Position> positions;
  std::vector<Order> orders;         // pending orders
  std::vector<Order> historyOrders;  // MT5
  std::vector<Deal> deals;           // MT5
  std::vector<Closed> closed;        // MT4
  uint64_t nextTicket = 1000;
  unsigned nextRequestId = 1;
  // injections (not persisted)
  int requoteLeft = 0, rejectFillLeft = 0;
  std::string rejectFillSymbol;
  std::deque<Txn> txns;
  bool quoteChanged = false;
  std::string statePath;

  // ---------------------------------------------------------------- time and lookups

  /** Broker server time now, milliseconds since 1970 (UTC + utcOffsetSec). */
  int64_t nowMsc() const {
    using namespace std::chrono;
    return (int64_t)duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() + utcOffsetSec * 1000;
  }
  Symbol *sym(const std::string &n) {
    for (auto &s : symbols)
      if (s.name == n) return &s;
    return nullptr;
  }
  Position *pos(uint64_t t) {
    for (auto &p : positions)
      if (p.ticket == t) return &p;
    return nullptr;
  }
  Order *ord(uint64_t t) {
    for (auto &o : orders)
      if (o.ticket == t) return &o;
    return nullptr;
  }
  Position *posBySymbol(const std::string &s) {
    for (auto &p : positions)
      if (p.symbol == s) return &p;
    return nullptr;
  }
  uint64_t newTicket() { return nextTicket++; }

  // ---------------------------------------------------------------- money

  /** Profit in account currency of `vol` lots moved from `open` to `close` (buy: close−open). */
  static double profitOf(const Symbol &s, int type, double vol, double open, double close) {
    double diff = type == kBuy ? close - open : open - close;
    if (s.tickSize <= 0) return 0;
    return std::round(diff / s.tickSize * s.tickValue * vol * 100.0) / 100.0;
  }
  /** Floating profit of a position at the current quote (buy closes at bid, sell at ask). */
  double floating(const Position &p) {
    Symbol *s = sym(p.symbol);
    if (!s) return 0;
    return profitOf(*s, p.type, p.volume, p.priceOpen, p.type == kBuy ? s->bid : s->ask);
  }
  /** Margin in account currency for `vol` lots at `price`: vol × price × tickValue / tickSize / leverage. */
  double marginOf(const Symbol &s, double vol, double price) const {
    if (s.tickSize <= 0 || leverage <= 0) return 0;
    return vol * price * s.tickValue / s.tickSize / (double)leverage;
  }
  double profit() {
    double t = 0;
    for (auto &p : positions) t += floating(p);
    return t;
  }
  double equity() { return balance + credit + profit(); }
  double margin() {
    double m = 0;
    for (auto &p : positions) {
      Symbol *s = sym(p.symbol);
      if (s) m += marginOf(*s, p.volume, p.priceOpen);
    }
    return std::round(m * 100.0) / 100.0;
  }
  double freeMargin() { return equity() - margin(); }

  // ---------------------------------------------------------------- checks

  static bool onStep(double v, double step) {
    if (step <= 0) return true;
    double n = v / step;
    return std::fabs(n - std::round(n)) < 1e-6;
  }
  static Err checkVolume(const Symbol &s, double v) {
    double eps = s.volumeStep > 0 ? s.volumeStep * 1e-6 : 1e-9;
    if (!(v > 0) || v < s.volumeMin - eps || v > s.volumeMax + eps || !onStep(v, s.volumeStep)) return Err::Volume;
    return Err::Ok;
  }
  static bool onGrid(const Symbol &s, double price) {
    if (price == 0) return true;
    double t = s.tickSize > 0 ? s.tickSize : s.point;
    return onStep(price, t);
  }
  /** SL/TP of a position of `type` against the market (mql-facts §3 stop-level table). */
  static Err checkPositionStops(const Symbol &s, int type, double sl, double tp) {
    if (!onGrid(s, sl) || !onGrid(s, tp) || sl < 0 || tp < 0) return Err::Stops;
    double lvl = s.stopsLevel * s.point, eps = s.point * 1e-3;
    if (type == kBuy) {
      if (sl > 0 && s.bid - sl < lvl - eps) return Err::Stops;
      if (tp > 0 && tp - s.bid < lvl - eps) return Err::Stops;
      if (sl > 0 && sl >= s.bid - eps && lvl == 0) return Err::Stops;
      if (tp > 0 && tp <= s.bid + eps && lvl == 0) return Err::Stops;
    } else {
      if (sl > 0 && sl - s.ask < lvl - eps) return Err::Stops;
      if (tp > 0 && s.ask - tp < lvl - eps) return Err::Stops;
      if (sl > 0 && sl <= s.ask + eps && lvl == 0) return Err::Stops;
      if (tp > 0 && tp >= s.ask - eps && lvl == 0) return Err::Stops;
    }
    return Err::Ok;
  }
  /** Pending order price against the market and its SL/TP against the order price. */
  static Err checkPending(const Symbol &s, int type, double price, double sl, double tp) {
    if (!(price > 0) || !onGrid(s, price)) return Err::PendingPrice;
    double lvl = s.stopsLevel * s.point, eps = s.point * 1e-3;
    double dist = 0;
    switch (type) {
      case kBuyLimit: dist = s.ask - price; break;
      case kSellLimit: dist = price - s.bid; break;
      case kBuyStop: dist = price - s.ask; break;
      case kSellStop: dist = s.bid - price; break;
      default: return Err::Invalid;
    }
    if (dist < lvl - eps || dist < -eps) return Err::PendingPrice;
    if (!onGrid(s, sl) || !onGrid(s, tp) || sl < 0 || tp < 0) return Err::Stops;
    if (isBuyType(type)) {
      if (sl > 0 && price - sl < std::max(lvl, eps) - eps) return Err::Stops;
      if (tp > 0 && tp - price < std::max(lvl, eps) - eps) return Err::Stops;
    } else {
      if (sl > 0 && sl - price < std::max(lvl, eps) - eps) return Err::Stops;
      if (tp > 0 && price - tp < std::max(lvl, eps) - eps) return Err::Stops;
    }
    return Err::Ok;
  }
  /** Freeze level: a position whose SL/TP or a pending order whose price is within it is frozen. */
  static bool frozen(const Symbol &s, double level, bool buySide) {
    if (s.freezeLevel <= 0 || level <= 0) return false;
    double mkt = buySide ? s.bid : s.ask;
    return std::fabs(mkt - level) <= s.freezeLevel * s.point + s.point * 1e-3;
  }
  static Err checkOpenMode(const Symbol &s, int type) {
    switch (s.tradeMode) {
      case kTradeDisabled: return Err::Disabled;
      case kTradeCloseOnly: return Err::CloseOnly;
      case kTradeLongOnly: return isBuyType(type) ? Err::Ok : Err::LongOnly;
      case kTradeShortOnly: return isBuyType(type) ? Err::ShortOnly : Err::Ok;
      default: return Err::Ok;
    }
  }
  /** Filling policy allowed for a market request (mql-facts §3): FOK/IOC by bitmask, RETURN only for exchange execution. */
  static bool fillingAllowed(const Symbol &s, int filling) {
    switch (filling) {
      case kFillFok: return (s.fillingMode & 1) != 0;
      case kFillIoc: return (s.fillingMode & 2) != 0;
      case kFillReturn: return s.exeMode == kExeExchange;
      default: return false;
    }
  }

  // ---------------------------------------------------------------- transactions (MT5)

  /** Queues a transaction; like the terminal's queue it holds 1024 at most (the oldest is dropped). */
  void pushTxn(const Txn &t) {
    if (txns.size() >= 1024) txns.pop_front();
    txns.push_back(t);
  }
  void txOrder(int type, const Order &o) {
    if (!mt5) return;
    Txn t;
    t.type = type;
    t.order = o.ticket;
    t.symbol = o.symbol;
    t.orderType = o.type;
    t.orderState = o.state;
    t.timeType = o.typeTime;
    t.expiration = o.expiration;
    t.price = o.price;
    t.priceTrigger = o.stopLimit;
    t.sl = o.sl;
    t.tp = o.tp;
    t.volume = o.volCur;
    t.position = o.positionId;
    t.positionBy = o.positionById;
    pushTxn(t);
  }
  void txDeal(const Deal &d) {
    if (!mt5) return;
    Txn t;
    t.type = kTxDealAdd;
    t.deal = d.ticket;
    t.order = d.order;
    t.symbol = d.symbol;
    t.dealType = d.type;
    t.price = d.price;
    t.volume = d.volume;
    t.position = d.positionId;
    t.sl = d.sl;
    t.tp = d.tp;
    pushTxn(t);
  }
  void txPosition(const Position &p) {
    if (!mt5) return;
    Txn t;
    t.type = kTxPosition;
    t.position = p.ticket;
    t.symbol = p.symbol;
    t.orderType = p.type;
    t.price = p.priceOpen;
    t.sl = p.sl;
    t.tp = p.tp;
    t.volume = p.volume;
    pushTxn(t);
  }
  void txRequest(const Req &rq, const Res &rs) {
    if (!mt5) return;
    Txn t;
    t.type = kTxRequest;
    t.req = rq;
    t.res = rs;
    pushTxn(t);
  }

  // ---------------------------------------------------------------- execution primitives

  /** Closes `vol` of position `p` at `price` (MT4: partial close moves the rest to a new ticket). */
  void mt4Close(Position p, double vol, double price, const std::string &suffix, Outcome &out) {
    Symbol *s = sym(p.symbol);
    int64_t now = nowMsc() / 1000;
    double pr = s ? profitOf(*s, p.type, vol, p.priceOpen, price) : 0;
    balance += pr;
    Closed c;
    c.ticket = p.ticket;
    c.symbol = p.symbol;
    c.type = p.type;
    c.lots = vol;
    c.openPrice = p.priceOpen;
    c.closePrice = price;
    c.sl = p.sl;
    c.tp = p.tp;
    c.profit = pr;
    c.openTime = p.timeMsc / 1000;
    c.closeTime = now;
    c.magic = p.magic;
    c.comment = p.comment + suffix;
    positions.erase(std::remove_if(positions.begin(), positions.end(), [&](const Position &x) { return x.ticket == p.ticket; }), positions.end());
    double rest = std::round((p.volume - vol) * 1e8) / 1e8;
    if (rest > 1e-9) {
      Position r = p;
      r.ticket = r.id = newTicket();
      r.volume = rest;
      r.comment = "from #" + std::to_string(p.ticket);
      c.comment = "to #" + std::to_string(r.ticket);
      positions.push_back(r);
      out.remaining = r.ticket;
    }
    closed.push_back(c);
    out.position = p.ticket;
    out.price = price;
    out.volume = vol;
  }

  /**
   * Fills market order `o` (type kBuy/kSell, or a triggered pending order) at `price`.
   * `target`: position to close/reduce (hedging), 0 = open a new one (hedging) / net (netting).
   * MT5: history order, deal and the ORDER_ADD? / ORDER_DELETE / HISTORY_ADD / DEAL_ADD chain.
   */
  void fill(Order o, int side, double price, uint64_t target, bool emitAdd, const std::string &closeComment, Outcome &out) {
    Symbol *s = sym(o.symbol);
    int64_t now = nowMsc();
    if (!mt5) {
      if (target) {
        Position *p = pos(target);
        if (p) mt4Close(*p, o.volInit, price, closeComment, out);
        return;
      }
      Position p;
      p.ticket = p.id = o.ticket;
      p.symbol = o.symbol;
      p.type = side;
      p.volume = o.volInit;
      p.priceOpen = price;
      p.sl = o.sl;
      p.tp = o.tp;
      p.timeMsc = p.updateMsc = now;
      p.magic = o.magic;
      p.comment = o.comment;
      p.reason = o.reason;
      positions.push_back(p);
      out.order = out.position = p.ticket;
      out.price = price;
      out.volume = p.volume;
      return;
    }
    if (emitAdd) {
      o.state = kStateStarted;
      txOrder(kTxOrderAdd, o);
    }
    // the deal
    Deal d;
    d.ticket = newTicket();
    d.order = o.ticket;
    d.symbol = o.symbol;
    d.type = side;
    d.reason = o.reason;
    d.volume = o.volInit;
    d.price = price;
    d.timeMsc = now;
    d.magic = (int64_t)o.magic;
    d.comment = o.comment;
    Position *p = nullptr;
    if (target) p = pos(target);
    else if (netting) p = posBySymbol(o.symbol);
    if (!p) {
      Position np;
      np.ticket = np.id = o.ticket;
      np.symbol = o.symbol;
      np.type = side;
      np.volume = o.volInit;
      np.priceOpen = price;
      np.sl = o.sl;
      np.tp = o.tp;
      np.timeMsc = np.updateMsc = now;
      np.magic = o.magic;
      np.comment = o.comment;
      np.reason = o.reason == kReasonSl || o.reason == kReasonTp ? kReasonClient : o.reason;
      positions.push_back(np);
      d.entry = kEntryIn;
      d.positionId = np.id;
      d.sl = np.sl;
      d.tp = np.tp;
    } else if (p->type == side) {  // netting: add to the position
      double v = p->volume + o.volInit;
      p->priceOpen = std::round((p->priceOpen * p->volume + price * o.volInit) / v / (s ? s->point : 1e-5)) * (s ? s->point : 1e-5);
      p->volume = std::round(v * 1e8) / 1e8;
      if (o.sl > 0) p->sl = o.sl;
      if (o.tp > 0) p->tp = o.tp;
      p->updateMsc = now;
      d.entry = kEntryIn;
      d.positionId = p->id;
    } else {
      double closeVol = std::min(p->volume, o.volInit);
      d.profit = s ? profitOf(*s, p->type, closeVol, p->priceOpen, price) : 0;
      balance += d.profit;
      d.positionId = p->id;
      d.sl = p->sl;
      d.tp = p->tp;
      if (!closeComment.empty()) d.comment = closeComment;
      double rest = std::round((p->volume - o.volInit) * 1e8) / 1e8;
      if (rest > 1e-9) {
        p->volume = rest;
        p->updateMsc = now;
        d.entry = kEntryOut;
      } else if (rest < -1e-9) {  // netting reversal
        p->type = side;
        p->volume = -rest;
        p->priceOpen = price;
        p->sl = o.sl;
        p->tp = o.tp;
        p->updateMsc = now;
        d.entry = kEntryInOut;
      } else {
        uint64_t t = p->ticket;
        positions.erase(std::remove_if(positions.begin(), positions.end(), [&](const Position &x) { return x.ticket == t; }), positions.end());
        d.entry = kEntryOut;
      }
    }
    o.positionId = d.positionId;
    o.state = kStateFilled;
    o.volCur = 0;
    o.doneMsc = now;
    o.priceCurrent = price;
    if (o.price == 0) o.price = price;
    txOrder(kTxOrderDelete, o);
    historyOrders.push_back(o);
    txOrder(kTxHistoryAdd, o);
    deals.push_back(d);
    txDeal(d);
    out.order = o.ticket;
    out.deal = d.ticket;
    out.position = d.positionId;
    out.price = price;
    out.volume = d.volume;
  }

  // ---------------------------------------------------------------- the one entry for trade requests

  /**
   * Carries out one trade request (MT5 semantics; MT4 calls map onto it) from the EA or by hand.
   * Checks in order: symbol, action/type, trade mode, volume, filling (EA, market), prices and
   * stops, injected requote (EA, market), instant-execution deviation (EA), money. Persists the
   * book after a change.
   */
  Outcome trade(const Req &rq, Source src) {
    Outcome out;
    out.err = tradeImpl(rq, src, out);
    if (out.err == Err::Ok) save();
    return out;
  }

  Err tradeImpl(const Req &rq, Source src, Outcome &out) {
    bool ea = src == Source::Expert;
    int reason = ea ? kReasonExpert : kReasonClient;
    if (ea && (!tradeAllowed || !tradeExpert)) return Err::Disabled;
    switch (rq.action) {
      case kActDeal: {
        Symbol *s = nullptr;
        Position *p = nullptr;
        if (rq.position) {
          p = pos(rq.position);
          if (!p) return Err::PositionClosed;
          s = sym(p->symbol);
          if (!rq.symbol.empty() && rq.symbol != p->symbol) return Err::Invalid;
        } else {
          s = sym(rq.symbol);
        }
        if (!s) return Err::UnknownSymbol;
        if (rq.type != kBuy && rq.type != kSell) return Err::Invalid;
        if (netting && !p) p = posBySymbol(s->name);
        bool closing = p && p->type != rq.type;
        if (rq.position && !closing) return Err::Invalid;
        if (s->tradeMode == kTradeDisabled) return Err::Disabled;
        if (!closing || rq.volume > p->volume + 1e-9) {
          Err m = checkOpenMode(*s, rq.type);
          if (m != Err::Ok) return m;
        }
        if (checkVolume(*s, rq.volume) != Err::Ok) return Err::Volume;
        if (rq.position && rq.volume > p->volume + 1e-9) return Err::CloseVolume;
        if (ea && mt5) {
          if (rejectFillLeft > 0 && (rejectFillSymbol.empty() || rejectFillSymbol == s->name)) {
            rejectFillLeft--;
            return Err::Fill;
          }
          if (!fillingAllowed(*s, rq.filling)) return Err::Fill;
        }
        if (!closing && (rq.sl != 0 || rq.tp != 0)) {
          Err e = checkPositionStops(*s, rq.type, rq.sl, rq.tp);
          if (e != Err::Ok) return e;
        }
        if (closing && rq.position && (frozen(*s, p->sl, p->type == kBuy) || frozen(*s, p->tp, p->type == kBuy))) return Err::Frozen;
        double price = rq.type == kBuy ? s->ask : s->bid;
        if (ea && requoteLeft > 0) {
          requoteLeft--;
          return Err::Requote;
        }
        if (ea && (s->exeMode == kExeInstant || s->exeMode == kExeRequest)) {
          if (!(rq.price > 0)) return Err::Price;
          if (std::fabs(rq.price - price) > (double)rq.deviation * s->point + s->point * 1e-3) return Err::Requote;
        }
        if (!closing && marginOf(*s, rq.volume, price) > freeMargin() + 1e-9) return Err::NoMoney;
        Order o;
        o.ticket = (mt5 || !closing) ? newTicket() : 0;
        o.symbol = s->name;
        o.type = rq.type;
        o.reason = reason;
        o.filling = rq.filling;
        o.volInit = o.volCur = rq.volume;
        o.price = price;
        o.sl = closing ? 0 : rq.sl;
        o.tp = closing ? 0 : rq.tp;
        o.setupMsc = nowMsc();
        o.magic = (int64_t)rq.magic;
        o.comment = rq.comment;
        o.positionId = closing ? p->id : 0;
        fill(o, rq.type, price, closing && !netting ? p->ticket : 0, true, "", out);
        return Err::Ok;
      }
      case kActPending: {
        Symbol *s = sym(rq.symbol);
        if (!s) return Err::UnknownSymbol;
        if (rq.type == kBuyStopLimit || rq.type == kSellStopLimit) return Err::Unsupported;
        if (!isPendingType(rq.type)) return Err::Invalid;
        Err m = checkOpenMode(*s, rq.type);
        if (m != Err::Ok) return m;
        if (checkVolume(*s, rq.volume) != Err::Ok) return Err::Volume;
        Err e = checkPending(*s, rq.type, rq.price, rq.sl, rq.tp);
        if (e != Err::Ok) return e;
        if ((rq.typeTime == kTimeSpecified || (!mt5 && rq.expiration > 0)) && rq.expiration > 0 && rq.expiration <= nowMsc() / 1000) return Err::Expiration;
        Order o;
        o.ticket = newTicket();
        o.symbol = s->name;
        o.type = rq.type;
        o.state = kStatePlaced;
        o.reason = reason;
        o.filling = rq.filling;
        o.typeTime = rq.typeTime;
        o.expiration = rq.expiration;
        o.volInit = o.volCur = rq.volume;
        o.price = rq.price;
        o.sl = rq.sl;
        o.tp = rq.tp;
        o.setupMsc = nowMsc();
        o.magic = (int64_t)rq.magic;
        o.comment = rq.comment;
        orders.push_back(o);
        txOrder(kTxOrderAdd, o);
        out.order = o.ticket;
        out.price = o.price;
        out.volume = o.volInit;
        return Err::Ok;
      }
      case kActSltp: {
        Position *p = rq.position ? pos(rq.position) : posBySymbol(rq.symbol);
        if (!p) return rq.position ? Err::PositionClosed : Err::Invalid;
        Symbol *s = sym(p->symbol);
        if (!s) return Err::UnknownSymbol;
        if (s->tradeMode == kTradeDisabled) return Err::Disabled;
        double eps = s->point * 1e-3;
        if (std::fabs(rq.sl - p->sl) < eps && std::fabs(rq.tp - p->tp) < eps) return Err::NoChanges;
        Err e = checkPositionStops(*s, p->type, rq.sl, rq.tp);
        if (e != Err::Ok) return e;
        if (frozen(*s, p->sl, p->type == kBuy) || frozen(*s, p->tp, p->type == kBuy)) return Err::Frozen;
        p->sl = rq.sl;
        p->tp = rq.tp;
        p->updateMsc = nowMsc();
        txPosition(*p);
        out.position = p->ticket;
        return Err::Ok;
      }
      case kActModify: {
        Order *o = ord(rq.order);
        if (!o) return Err::InvalidOrder;
        Symbol *s = sym(o->symbol);
        if (!s) return Err::UnknownSymbol;
        double eps = s->point * 1e-3;
        if (std::fabs(rq.price - o->price) < eps && std::fabs(rq.sl - o->sl) < eps && std::fabs(rq.tp - o->tp) < eps &&
            rq.expiration == o->expiration && (!mt5 || rq.typeTime == o->typeTime))
          return Err::NoChanges;
        Err e = checkPending(*s, o->type, rq.price, rq.sl, rq.tp);
        if (e != Err::Ok) return e;
        if (frozen(*s, o->price, isBuyType(o->type))) return Err::Frozen;
        o->price = rq.price;
        o->sl = rq.sl;
        o->tp = rq.tp;
        o->expiration = rq.expiration;
        if (mt5) o->typeTime = rq.typeTime;
        txOrder(kTxOrderUpdate, *o);
        out.order = o->ticket;
        return Err::Ok;
      }
      case kActRemove: {
        Order *o = ord(rq.order);
        if (!o) return Err::InvalidOrder;
        Symbol *s = sym(o->symbol);
        if (s && frozen(*s, o->price, isBuyType(o->type))) return Err::Frozen;
        out.order = o->ticket;
        removeOrder(o->ticket, kStateCanceled);
        return Err::Ok;
      }
      default:
        return Err::Invalid;
    }
  }

  /** Takes pending order `ticket` off the book as canceled/expired (MT5: ORDER_DELETE + HISTORY_ADD). */
  void removeOrder(uint64_t ticket, int state) {
    Order *po = ord(ticket);
    if (!po) return;
    Order o = *po;
    orders.erase(std::remove_if(orders.begin(), orders.end(), [&](const Order &x) { return x.ticket == ticket; }), orders.end());
    o.state = state;
    o.doneMsc = nowMsc();
    if (mt5) {
      txOrder(kTxOrderDelete, o);
      historyOrders.push_back(o);
      txOrder(kTxHistoryAdd, o);
    } else {
      Closed c;
      c.ticket = o.ticket;
      c.symbol = o.symbol;
      c.type = o.type;
      c.lots = o.volInit;
      c.openPrice = o.price;
      Symbol *s = sym(o.symbol);
      c.closePrice = s ? (isBuyType(o.type) ? s->ask : s->bid) : 0;
      c.sl = o.sl;
      c.tp = o.tp;
      c.openTime = o.setupMsc / 1000;
      c.closeTime = o.doneMsc / 1000;
      c.expiration = o.expiration;
      c.magic = o.magic;
      c.comment = o.comment + (state == kStateExpired ? "[expiration]" : "");
      closed.push_back(c);
    }
  }

  // ---------------------------------------------------------------- quotes

  /**
   * New quote for `name`: expires due pending orders, triggers pending orders (buy limit ask ≤
   * price, sell limit bid ≥ price, buy stop ask ≥ price, sell stop bid ≤ price) at their price,
   * then closes positions whose SL/TP is hit at the SL/TP price (reason SL/TP), then stops out
   * (reason SO, largest loss first, at market) while the margin level is ≤ stopOut %. Persists.
   * Returns false for an unknown symbol or a non-positive price.
   */
  bool setQuote(const std::string &symName, double bid, double ask) {
    Symbol *s = sym(symName);
    if (!s || !(bid > 0) || !(ask > 0)) return false;
    s->bid = bid;
    s->ask = ask;
    s->quoteMsc = nowMsc();
    quoteChanged = true;
    double eps = s->point * 1e-3;
    int64_t nowSec = nowMsc() / 1000;
    std::vector<uint64_t> due;
    for (auto &o : orders)
      if (o.symbol == symName && o.expiration > 0 && (!mt5 || o.typeTime == kTimeSpecified || o.typeTime == kTimeSpecifiedDay) && o.expiration <= nowSec) due.push_back(o.ticket);
    for (uint64_t t : due) removeOrder(t, kStateExpired);
    std::vector<uint64_t> hits;
    for (auto &o : orders) {
      if (o.symbol != symName) continue;
      bool hit = (o.type == kBuyLimit && ask <= o.price + eps) || (o.type == kSellLimit && bid >= o.price - eps) ||
                 (o.type == kBuyStop && ask >= o.price - eps) || (o.type == kSellStop && bid <= o.price + eps);
      if (hit) hits.push_back(o.ticket);
    }
    for (uint64_t t : hits) trigger(t);
    std::vector<std::pair<uint64_t, int>> stops;
    for (auto &p : positions) {
      if (p.symbol != symName) continue;
      if (p.type == kBuy) {
        if (p.sl > 0 && bid <= p.sl + eps) stops.push_back({p.ticket, kReasonSl});
        else if (p.tp > 0 && bid >= p.tp - eps) stops.push_back({p.ticket, kReasonTp});
      } else {
        if (p.sl > 0 && ask >= p.sl - eps) stops.push_back({p.ticket, kReasonSl});
        else if (p.tp > 0 && ask <= p.tp + eps) stops.push_back({p.ticket, kReasonTp});
      }
    }
    for (auto &st : stops) stopOut(st.first, st.second);
    // Stop-out: while the margin level (equity / margin, percent) is at or below soLevel, close
    // the position with the largest loss at market (reason SO).
    for (int guard = 0; guard < 10000 && !positions.empty(); guard++) {
      double m = margin();
      if (m <= 0 || equity() / m * 100.0 > soLevel) break;
      const Position *worst = &positions[0];
      for (auto &p : positions)
        if (floating(p) < floating(*worst)) worst = &p;
      stopOut(worst->ticket, kReasonSo);
    }
    save();
    return true;
  }

  /** Pending order `ticket` becomes a position at its price (MT5: position ticket = order ticket). */
  void trigger(uint64_t ticket) {
    Order *po = ord(ticket);
    if (!po) return;
    Order o = *po;
    orders.erase(std::remove_if(orders.begin(), orders.end(), [&](const Order &x) { return x.ticket == ticket; }), orders.end());
    int side = isBuyType(o.type) ? kBuy : kSell;
    Outcome out;
    if (!mt5) {
      Position p;
      p.ticket = p.id = o.ticket;
      p.symbol = o.symbol;
      p.type = side;
      p.volume = o.volInit;
      p.priceOpen = o.price;
      p.sl = o.sl;
      p.tp = o.tp;
      p.timeMsc = p.updateMsc = nowMsc();
      p.magic = o.magic;
      p.comment = o.comment;
      p.reason = o.reason;
      positions.push_back(p);
      return;
    }
    fill(o, side, o.price, 0, false, "", out);
  }

  /** Closes position `ticket` at its SL or TP price with reason SL/TP, or at market with reason SO. */
  void stopOut(uint64_t ticket, int reason) {
    Position *p = pos(ticket);
    if (!p) return;
    Symbol *s = sym(p->symbol);
    double market = s ? (p->type == kBuy ? s->bid : s->ask) : p->priceOpen;
    double price = reason == kReasonSl ? p->sl : reason == kReasonTp ? p->tp : market;
    std::string tag = reason == kReasonSl ? "sl" : reason == kReasonTp ? "tp" : "so";
    std::string level;
    if (reason == kReasonSo) {
      double m = margin();
      level = fixed(m > 0 ? equity() / m * 100.0 : 0, 2) + "%";
    }
    Outcome out;
    if (!mt5) {
      if (reason == kReasonSo) {
        // MT4 replaces the comment: "so: <level>%/<equity>/<margin>"
        Position copy = *p;
        copy.comment = "so: " + level + "/" + fixed(equity(), 2) + "/" + fixed(margin(), 2);
        *p = copy;
        mt4Close(*p, p->volume, price, "", out);
        return;
      }
      mt4Close(*p, p->volume, price, "[" + tag + "]", out);
      return;
    }
    Order o;
    o.ticket = newTicket();
    o.symbol = p->symbol;
    o.type = p->type == kBuy ? kSell : kBuy;
    o.reason = reason;
    o.volInit = o.volCur = p->volume;
    o.price = price;
    o.setupMsc = nowMsc();
    o.magic = p->magic;
    o.positionId = p->id;
    o.comment = reason == kReasonSo ? "[so " + level + "]" : "[" + tag + " " + fixed(price, s ? s->digits : 5) + "]";
    fill(o, o.type, price, netting ? 0 : p->ticket, true, o.comment, out);
  }

  // ---------------------------------------------------------------- configuration and state

  static std::string readFile(const std::string &path, bool &ok) {
    std::ifstream f(path, std::ios::binary);
    ok = (bool)f;
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  /**
   * Reads broker.json (DESIGN.md §5; throws std::runtime_error with the reason) and then the
   * state file if present. An empty path gives a default account with one EURUSD symbol and no
   * state file. A relative `stateFile` is resolved against the broker.json folder.
   */
  void load(const std::string &configPath, bool isMt5) {
    mt5 = isMt5;
    bool ok = false;
    std::string text = configPath.empty()
                           ? std::string(R"({"symbols":[{"name":"EURUSD","digits":5,"bid":1.08450,"ask":1.08460}]})")
                           : readFile(configPath, ok);
    if (!configPath.empty() && !ok) throw std::runtime_error("cannot read broker file " + configPath);
    JVal c;
    try {
      c = JParser(text).parse();
    } catch (const std::exception &e) {
      throw std::runtime_error((configPath.empty() ? std::string("default broker") : configPath) + ": " + e.what());
    }
    if (c.kind != JVal::Obj) throw std::runtime_error("broker file is not a JSON object");
    login = c.integer("login", 50001234);
    server = c.str("server", server);
    company = c.str("company", company);
    currency = c.str("currency", currency);
    name = c.str("name", name);
    balance = c.num("balance", 10000);
    credit = c.num("credit", 0);
    soCall = c.num("marginCall", 100);
    soLevel = c.num("stopOut", 50);
    leverage = c.integer("leverage", 100);
    netting = mt5 && c.str("marginMode", "hedging") == "netting";
    tradeAllowed = c.boolean("tradeAllowed", true);
    tradeExpert = c.boolean("tradeExpert", true);
    connected = c.boolean("connected", true);
    utcOffsetSec = c.integer("utcOffsetSec", 0);
    nextTicket = c.u64("ticketStart", 1000);
    if (mt5 && c.boolean("bigTickets", false)) nextTicket = (1ULL << 53) + 1000;
    const JVal *ss = c.get("symbols");
    if (ss && ss->kind == JVal::Arr) {
      for (const JVal &j : ss->arr) {
        Symbol s;
        s.name = j.str("name");
        if (s.name.empty()) throw std::runtime_error("a symbol without name in the broker file");
        s.description = j.str("description", s.name);
        s.currencyBase = j.str("currencyBase", s.name.size() >= 3 ? s.name.substr(0, 3) : s.name);
        s.currencyProfit = j.str("currencyProfit", currency);
        s.currencyMargin = j.str("currencyMargin", s.currencyBase);
        s.digits = (int)j.integer("digits", 5);
        s.point = j.num("point", std::pow(10.0, -s.digits));
        s.bid = j.num("bid", 0);
        s.ask = j.num("ask", s.bid);
        s.volumeMin = j.num("volumeMin", 0.01);
        s.volumeStep = j.num("volumeStep", 0.01);
        s.volumeMax = j.num("volumeMax", 100);
        s.contractSize = j.num("contractSize", 100000);
        s.tickSize = j.num("tickSize", s.point);
        s.tickValue = j.num("tickValue", 1);
        s.stopsLevel = (int)j.integer("stopsLevel", 0);
        s.freezeLevel = (int)j.integer("freezeLevel", 0);
        s.tradeMode = (int)j.integer("tradeMode", kTradeFull);
        s.fillingMode = (int)j.integer("fillingMode", 1);
        s.exeMode = (int)j.integer("exeMode", kExeMarket);
        s.selected = j.boolean("selected", true);
        s.quoteMsc = nowMsc();
        symbols.push_back(s);
      }
    }
    std::string sf = c.str("stateFile", "");
    if (!sf.empty()) {
      if (sf[0] != '/') {
        size_t slash = configPath.find_last_of('/');
        if (slash != std::string::npos) sf = configPath.substr(0, slash + 1) + sf;
      }
      statePath = sf;
      bool have = false;
      std::string st = readFile(statePath, have);
      if (have && !st.empty()) {
        try {
          restore(JParser(st).parse());
        } catch (const std::exception &e) {
          throw std::runtime_error(statePath + ": " + e.what());
        }
      }
    }
    save();
  }

  void restore(const JVal &st) {
    if (st.kind != JVal::Obj) return;
    balance = st.num("balance", balance);
    nextTicket = std::max(nextTicket, st.u64("nextTicket", nextTicket));
    nextRequestId = (unsigned)st.integer("nextRequestId", 1);
    if (const JVal *q = st.get("quotes"))
      for (auto &kv : q->obj) {
        Symbol *s = sym(kv.first);
        if (!s) continue;
        s->bid = kv.second.num("bid", s->bid);
        s->ask = kv.second.num("ask", s->ask);
        s->quoteMsc = kv.second.integer("timeMsc", s->quoteMsc);
      }
    positions.clear();
    orders.clear();
    historyOrders.clear();
    deals.clear();
    closed.clear();
    if (const JVal *a = st.get("positions"))
      for (const JVal &j : a->arr) {
        Position p;
        p.ticket = j.u64("ticket");
        p.id = j.u64("id", p.ticket);
        p.symbol = j.str("symbol");
        p.comment = j.str("comment");
        p.type = (int)j.integer("type");
        p.reason = (int)j.integer("reason");
        p.volume = j.num("volume");
        p.priceOpen = j.num("priceOpen");
        p.sl = j.num("sl");
        p.tp = j.num("tp");
        p.timeMsc = j.integer("timeMsc");
        p.updateMsc = j.integer("updateMsc");
        p.magic = j.integer("magic");
        positions.push_back(p);
      }
    auto readOrders = [&](const char *key, std::vector<Order> &into) {
      if (const JVal *a = st.get(key))
        for (const JVal &j : a->arr) {
          Order o;
          o.ticket = j.u64("ticket");
          o.positionId = j.u64("positionId");
          o.positionById = j.u64("positionById");
          o.symbol = j.str("symbol");
          o.comment = j.str("comment");
          o.type = (int)j.integer("type");
          o.state = (int)j.integer("state");
          o.reason = (int)j.integer("reason");
          o.filling = (int)j.integer("filling");
          o.typeTime = (int)j.integer("typeTime");
          o.volInit = j.num("volInit");
          o.volCur = j.num("volCur");
          o.price = j.num("price");
          o.stopLimit = j.num("stopLimit");
          o.sl = j.num("sl");
          o.tp = j.num("tp");
          o.priceCurrent = j.num("priceCurrent");
          o.setupMsc = j.integer("setupMsc");
          o.doneMsc = j.integer("doneMsc");
          o.expiration = j.integer("expiration");
          o.magic = j.integer("magic");
          into.push_back(o);
        }
    };
    readOrders("orders", orders);
    readOrders("historyOrders", historyOrders);
    if (const JVal *a = st.get("deals"))
      for (const JVal &j : a->arr) {
        Deal d;
        d.ticket = j.u64("ticket");
        d.order = j.u64("order");
        d.positionId = j.u64("positionId");
        d.symbol = j.str("symbol");
        d.comment = j.str("comment");
        d.type = (int)j.integer("type");
        d.entry = (int)j.integer("entry");
        d.reason = (int)j.integer("reason");
        d.volume = j.num("volume");
        d.price = j.num("price");
        d.profit = j.num("profit");
        d.sl = j.num("sl");
        d.tp = j.num("tp");
        d.timeMsc = j.integer("timeMsc");
        d.magic = j.integer("magic");
        deals.push_back(d);
      }
    if (const JVal *a = st.get("closed"))
      for (const JVal &j : a->arr) {
        Closed c;
        c.ticket = j.u64("ticket");
        c.symbol = j.str("symbol");
        c.comment = j.str("comment");
        c.type = (int)j.integer("type");
        c.lots = j.num("lots");
        c.openPrice = j.num("openPrice");
        c.closePrice = j.num("closePrice");
        c.sl = j.num("sl");
        c.tp = j.num("tp");
        c.profit = j.num("profit");
        c.openTime = j.integer("openTime");
        c.closeTime = j.integer("closeTime");
        c.expiration = j.integer("expiration");
        c.magic = j.integer("magic");
        closed.push_back(c);
      }
  }

  std::string stateJson() {
    std::vector<std::string> qs, ps, os, hs, ds, cs;
    JObj quotes;
    for (auto &s : symbols) quotes.raw(s.name, JObj().n("bid", s.bid).n("ask", s.ask).i("timeMsc", s.quoteMsc).str());
    for (auto &p : positions)
      ps.push_back(JObj().u("ticket", p.ticket).u("id", p.id).s("symbol", p.symbol).s("comment", p.comment).i("type", p.type).i("reason", p.reason)
                       .n("volume", p.volume).n("priceOpen", p.priceOpen).n("sl", p.sl).n("tp", p.tp).i("timeMsc", p.timeMsc).i("updateMsc", p.updateMsc)
                       .i("magic", p.magic).str());
    auto orderJson = [](const Order &o) {
      return JObj().u("ticket", o.ticket).u("positionId", o.positionId).u("positionById", o.positionById).s("symbol", o.symbol).s("comment", o.comment)
          .i("type", o.type).i("state", o.state).i("reason", o.reason).i("filling", o.filling).i("typeTime", o.typeTime).n("volInit", o.volInit)
          .n("volCur", o.volCur).n("price", o.price).n("stopLimit", o.stopLimit).n("sl", o.sl).n("tp", o.tp).n("priceCurrent", o.priceCurrent)
          .i("setupMsc", o.setupMsc).i("doneMsc", o.doneMsc).i("expiration", o.expiration).i("magic", o.magic).str();
    };
    for (auto &o : orders) os.push_back(orderJson(o));
    for (auto &o : historyOrders) hs.push_back(orderJson(o));
    for (auto &d : deals)
      ds.push_back(JObj().u("ticket", d.ticket).u("order", d.order).u("positionId", d.positionId).s("symbol", d.symbol).s("comment", d.comment)
                       .i("type", d.type).i("entry", d.entry).i("reason", d.reason).n("volume", d.volume).n("price", d.price).n("profit", d.profit)
                       .n("sl", d.sl).n("tp", d.tp).i("timeMsc", d.timeMsc).i("magic", d.magic).str());
    for (auto &c : closed)
      cs.push_back(JObj().u("ticket", c.ticket).s("symbol", c.symbol).s("comment", c.comment).i("type", c.type).n("lots", c.lots)
                       .n("openPrice", c.openPrice).n("closePrice", c.closePrice).n("sl", c.sl).n("tp", c.tp).n("profit", c.profit)
                       .i("openTime", c.openTime).i("closeTime", c.closeTime).i("expiration", c.expiration).i("magic", c.magic).str());
    return JObj().i("version", 1).s("platform", mt5 ? "MT5" : "MT4").n("balance", balance).u("nextTicket", nextTicket)
        .i("nextRequestId", nextRequestId).raw("quotes", quotes.str()).raw("positions", jarr(ps)).raw("orders", jarr(os))
        .raw("historyOrders", jarr(hs)).raw("deals", jarr(ds)).raw("closed", jarr(cs)).str();
  }

  /** Writes the whole book to `statePath` atomically (tmp file + rename); no-op without a state file. */
  void save() {
    if (statePath.empty()) return;
    std::string tmp = statePath + ".tmp";
    std::string text = stateJson();
    FILE *f = std::fopen(tmp.c_str(), "wb");
    if (!f) {
      std::fprintf(stderr, "broker: cannot write %s\n", tmp.c_str());
      return;
    }
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    if (std::rename(tmp.c_str(), statePath.c_str()) != 0) std::fprintf(stderr, "broker: cannot rename %s\n", tmp.c_str());
  }

  // ---------------------------------------------------------------- control channel

  static std::string typeName(int t) {
    static const char *n[] = {"BUY", "SELL", "BUY_LIMIT", "SELL_LIMIT", "BUY_STOP", "SELL_STOP", "BUY_STOP_LIMIT", "SELL_STOP_LIMIT"};
    return t >= 0 && t < 8 ? n[t] : "UNKNOWN";
  }
  static int typeOf(const std::string &n) {
    for (int t = 0; t < 6; t++)
      if (typeName(t) == n) return t;
    return -1;
  }
  static bool parseNum(const std::string &s, double &v) {
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == 0 && std::isfinite(v);
  }
  static bool parseTicket(const std::string &s, uint64_t &t) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
    t = std::strtoull(s.c_str(), nullptr, 10);
    return true;
  }
  static std::string fail(const std::string &msg) { return JObj().b("ok", false).s("error", msg).str(); }
  static std::string failErr(Err e) { return JObj().b("ok", false).s("error", errText(e)).i("code", retcodeOf(e)).i("mt4Error", mt4ErrorOf(e)).str(); }

  std::string bookJson() {
    std::vector<std::string> ps, os;
    std::vector<const Position *> pp;
    for (auto &p : positions) pp.push_back(&p);
    std::sort(pp.begin(), pp.end(), [](const Position *a, const Position *b) { return a->ticket < b->ticket; });
    for (const Position *p : pp) {
      Symbol *s = sym(p->symbol);
      int dg = s ? s->digits : 5, vd = s ? s->volumeDigits() : 2;
      ps.push_back(JObj().u("ticket", p->ticket).s("symbol", p->symbol).s("side", p->type == kBuy ? "BUY" : "SELL").s("volume", fixed(p->volume, vd))
                       .s("openPrice", fixed(p->priceOpen, dg)).s("sl", fixed(p->sl, dg)).s("tp", fixed(p->tp, dg)).i("magic", p->magic)
                       .s("comment", p->comment).s("profit", fixed(floating(*p), 2)).str());
    }
    for (auto &o : orders) {
      Symbol *s = sym(o.symbol);
      int dg = s ? s->digits : 5, vd = s ? s->volumeDigits() : 2;
      os.push_back(JObj().u("ticket", o.ticket).s("symbol", o.symbol).s("type", typeName(o.type)).s("volume", fixed(o.volCur, vd))
                       .s("price", fixed(o.price, dg)).s("sl", fixed(o.sl, dg)).s("tp", fixed(o.tp, dg)).i("magic", o.magic)
                       .s("comment", o.comment).str());
    }
    return JObj().b("ok", true).raw("positions", jarr(ps)).raw("orders", jarr(os)).s("balance", fixed(balance, 2))
        .s("equity", fixed(equity(), 2)).str();
  }

  /**
   * One control-channel line → the JSON text of its `@@` answer (DESIGN.md §5): open close modify
   * pending pmodify cancel price requote reject-fill book. Unknown or malformed commands answer
   * {"ok":false,"error":"..."}; refused trades add "code" (MT5 retcode) and "mt4Error".
   */
  std::string command(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> a;
    for (std::string w; in >> w;) a.push_back(w);
    if (a.empty()) return fail("empty command");
    const std::string &c = a[0];
    double v1 = 0, v2 = 0, v3 = 0, v4 = 0;
    if (c == "book") return bookJson();
    if (c == "open") {
      if (a.size() != 4 && a.size() != 6) return fail("usage: open SYM BUY|SELL VOL [SL TP]");
      int t = typeOf(a[2]);
      if ((t != kBuy && t != kSell) || !parseNum(a[3], v1)) return fail("usage: open SYM BUY|SELL VOL [SL TP]");
      if (a.size() == 6 && (!parseNum(a[4], v2) || !parseNum(a[5], v3))) return fail("bad SL/TP");
      Req r;
      r.action = kActDeal;
      r.symbol = a[1];
      r.type = t;
      r.volume = v1;
      r.sl = v2;
      r.tp = v3;
      Outcome o = trade(r, Source::Client);
      if (o.err != Err::Ok) return failErr(o.err);
      JObj j;
      j.b("ok", true).u("ticket", o.position).s("price", fixed(o.price, sym(a[1]) ? sym(a[1])->digits : 5));
      if (mt5) j.u("order", o.order).u("deal", o.deal);
      return j.str();
    }
    if (c == "close") {
      uint64_t t = 0;
      if ((a.size() != 2 && a.size() != 3) || !parseTicket(a[1], t)) return fail("usage: close TICKET [VOL]");
      Position *p = pos(t);
      if (!p) return failErr(Err::PositionClosed);
      double vol = p->volume;
      if (a.size() == 3 && !parseNum(a[2], vol)) return fail("bad volume");
      Req r;
      r.action = kActDeal;
      r.symbol = p->symbol;
      r.position = t;
      r.type = p->type == kBuy ? kSell : kBuy;
      r.volume = vol;
      Outcome o = trade(r, Source::Client);
      if (o.err != Err::Ok) return failErr(o.err);
      JObj j;
      j.b("ok", true).u("ticket", t).s("price", fixed(o.price, sym(r.symbol) ? sym(r.symbol)->digits : 5));
      if (o.remaining) j.u("remainingTicket", o.remaining);
      if (mt5) j.u("order", o.order).u("deal", o.deal);
      return j.str();
    }
    if (c == "modify") {
      uint64_t t = 0;
      if (a.size() != 4 || !parseTicket(a[1], t) || !parseNum(a[2], v1) || !parseNum(a[3], v2)) return fail("usage: modify TICKET SL TP");
      Req r;
      r.action = kActSltp;
      r.position = t;
      r.sl = v1;
      r.tp = v2;
      Outcome o = trade(r, Source::Client);
      if (o.err != Err::Ok) return failErr(o.err);
      return JObj().b("ok", true).u("ticket", t).str();
    }
    if (c == "pending") {
      if (a.size() != 5 && a.size() != 7) return fail("usage: pending SYM BUY_LIMIT|SELL_LIMIT|BUY_STOP|SELL_STOP VOL PRICE [SL TP]");
      int t = typeOf(a[2]);
      if (!isPendingType(t) || !parseNum(a[3], v1) || !parseNum(a[4], v2)) return fail("usage: pending SYM BUY_LIMIT|SELL_LIMIT|BUY_STOP|SELL_STOP VOL PRICE [SL TP]");
      if (a.size() == 7 && (!parseNum(a[5], v3) || !parseNum(a[6], v4))) return fail("bad SL/TP");
      Req r;
      r.action = kActPending;
      r.symbol = a[1];
      r.type = t;
      r.volume = v1;
      r.price = v2;
      r.sl = v3;
      r.tp = v4;
      r.filling = kFillReturn;
      Outcome o = trade(r, Source::Client);
      if (o.err != Err::Ok) return failErr(o.err);
      return JObj().b("ok", true).u("ticket", o.order).str();
    }
    if (c == "pmodify") {
      uint64_t t = 0;
      if (a.size() != 5 || !parseTicket(a[1], t) || !parseNum(a[2], v1) || !parseNum(a[3], v2) || !parseNum(a[4], v3)) return fail("usage: pmodify TICKET PRICE SL TP");
      Order *o = ord(t);
      if (!o) return failErr(Err::InvalidOrder);
      Req r;
      r.action = kActModify;
      r.order = t;
      r.price = v1;
      r.sl = v2;
      r.tp = v3;
      r.typeTime = o->typeTime;
      r.expiration = o->expiration;
      Outcome out = trade(r, Source::Client);
      if (out.err != Err::Ok) return failErr(out.err);
      return JObj().b("ok", true).u("ticket", t).str();
    }
    if (c == "cancel") {
      uint64_t t = 0;
      if (a.size() != 2 || !parseTicket(a[1], t)) return fail("usage: cancel TICKET");
      Req r;
      r.action = kActRemove;
      r.order = t;
      Outcome out = trade(r, Source::Client);
      if (out.err != Err::Ok) return failErr(out.err);
      return JObj().b("ok", true).u("ticket", t).str();
    }
    if (c == "price") {
      if (a.size() != 4 || !parseNum(a[2], v1) || !parseNum(a[3], v2)) return fail("usage: price SYM BID ASK");
      if (!sym(a[1])) return fail("unknown symbol " + a[1]);
      if (!(v1 > 0) || !(v2 >= v1)) return fail("bad quote: need 0 < BID <= ASK");
      setQuote(a[1], v1, v2);
      return JObj().b("ok", true).str();
    }
    if (c == "requote") {
      long n = 1;
      if (a.size() > 2 || (a.size() == 2 && (a[1].find_first_not_of("0123456789") != std::string::npos || a[1].empty()))) return fail("usage: requote N");
      if (a.size() == 2) n = std::strtol(a[1].c_str(), nullptr, 10);
      requoteLeft = (int)n;
      return JObj().b("ok", true).i("requotes", requoteLeft).str();
    }
    if (c == "reject-fill") {
      int n = 1;
      std::string s;
      for (size_t k = 1; k < a.size(); k++) {
        if (a[k].find_first_not_of("0123456789") == std::string::npos) n = std::atoi(a[k].c_str());
        else if (sym(a[k])) s = a[k];
        else return fail("unknown symbol " + a[k]);
      }
      rejectFillLeft = n;
      rejectFillSymbol = s;
      return JObj().b("ok", true).i("rejects", n).str();
    }
    return fail("unknown command " + c);
  }
};

/** The process's broker. */
inline Broker &broker() {
  static Broker b;
  return b;
}

}  // namespace cbsim
