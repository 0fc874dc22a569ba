// Simulated broker — enums, constants and structs of the trade/account/symbol built-ins
// (DESIGN.md §4). Functions take `int` for property ids (like mql_constants.h); struct fields keep
// their MQL enum types so `ENUM_TRADE_TRANSACTION_TYPE type = trans.type;` compiles as in MQL5.
// Numeric values follow the MQL5 reference where it documents them (order/deal/position types,
// filling, retcodes, MQL4 OP_*/MODE_*); property ids are the harness's own.
#pragma once

#include "mql_core.h"

// ---------------------------------------------------------------------------------------------
// Both dialects

// https://www.mql5.com/en/docs/constants/environment_state/accountinformation
enum ENUM_ACCOUNT_INFO_INTEGER {
  ACCOUNT_LOGIN = 0, ACCOUNT_TRADE_MODE = 32, ACCOUNT_LEVERAGE = 35, ACCOUNT_LIMIT_ORDERS = 47, ACCOUNT_MARGIN_SO_MODE = 44,
  ACCOUNT_TRADE_ALLOWED = 33, ACCOUNT_TRADE_EXPERT = 34,
#ifdef __MQL5__
  ACCOUNT_MARGIN_MODE = 53, ACCOUNT_CURRENCY_DIGITS = 54, ACCOUNT_FIFO_CLOSE = 55, ACCOUNT_HEDGE_ALLOWED = 56,
#endif
};
enum ENUM_ACCOUNT_INFO_DOUBLE {
  ACCOUNT_BALANCE = 37, ACCOUNT_CREDIT = 38, ACCOUNT_PROFIT = 39, ACCOUNT_EQUITY = 40, ACCOUNT_MARGIN = 41,
  ACCOUNT_MARGIN_FREE = 42, ACCOUNT_MARGIN_LEVEL = 43, ACCOUNT_MARGIN_SO_CALL = 45, ACCOUNT_MARGIN_SO_SO = 46,
  ACCOUNT_MARGIN_INITIAL = 48, ACCOUNT_MARGIN_MAINTENANCE = 49, ACCOUNT_ASSETS = 50, ACCOUNT_LIABILITIES = 51,
  ACCOUNT_COMMISSION_BLOCKED = 52
};
enum ENUM_ACCOUNT_INFO_STRING { ACCOUNT_NAME = 1, ACCOUNT_SERVER = 3, ACCOUNT_CURRENCY = 36, ACCOUNT_COMPANY = 2 };
enum ENUM_ACCOUNT_TRADE_MODE { ACCOUNT_TRADE_MODE_DEMO = 0, ACCOUNT_TRADE_MODE_CONTEST = 1, ACCOUNT_TRADE_MODE_REAL = 2 };
enum ENUM_ACCOUNT_STOPOUT_MODE { ACCOUNT_STOPOUT_MODE_PERCENT = 0, ACCOUNT_STOPOUT_MODE_MONEY = 1 };
#ifdef __MQL5__
// https://www.mql5.com/en/docs/constants/environment_state/accountinformation#enum_account_margin_mode
enum ENUM_ACCOUNT_MARGIN_MODE { ACCOUNT_MARGIN_MODE_RETAIL_NETTING = 0, ACCOUNT_MARGIN_MODE_EXCHANGE = 1, ACCOUNT_MARGIN_MODE_RETAIL_HEDGING = 2 };
#endif

// https://www.mql5.com/en/docs/constants/environment_state/marketinfoconstants
enum ENUM_SYMBOL_INFO_INTEGER {
  SYMBOL_SELECT = 0, SYMBOL_VISIBLE = 76, SYMBOL_DIGITS = 17, SYMBOL_SPREAD = 18, SYMBOL_SPREAD_FLOAT = 41,
  SYMBOL_TRADE_MODE = 26, SYMBOL_TRADE_STOPS_LEVEL = 31, SYMBOL_TRADE_FREEZE_LEVEL = 32, SYMBOL_TRADE_EXEMODE = 33,
  SYMBOL_FILLING_MODE = 50, SYMBOL_EXPIRATION_MODE = 49, SYMBOL_ORDER_MODE = 71, SYMBOL_TIME = 15,
  SYMBOL_TRADE_CALC_MODE = 29, SYMBOL_EXIST = 77, SYMBOL_CUSTOM = 78, SYMBOL_START_TIME = 51, SYMBOL_EXPIRATION_TIME = 52
};
enum ENUM_SYMBOL_INFO_DOUBLE {
  SYMBOL_BID = 1, SYMBOL_BIDHIGH = 2, SYMBOL_BIDLOW = 3, SYMBOL_ASK = 4, SYMBOL_ASKHIGH = 5, SYMBOL_ASKLOW = 6,
  SYMBOL_LAST = 7, SYMBOL_POINT = 16, SYMBOL_TRADE_TICK_VALUE = 126, SYMBOL_TRADE_TICK_VALUE_PROFIT = 53,
  SYMBOL_TRADE_TICK_VALUE_LOSS = 54, SYMBOL_TRADE_TICK_SIZE = 127, SYMBOL_TRADE_CONTRACT_SIZE = 128,
  SYMBOL_VOLUME_MIN = 34, SYMBOL_VOLUME_MAX = 35, SYMBOL_VOLUME_STEP = 36, SYMBOL_VOLUME_LIMIT = 55,
  SYMBOL_SWAP_LONG = 38, SYMBOL_SWAP_SHORT = 39, SYMBOL_MARGIN_INITIAL = 42, SYMBOL_MARGIN_MAINTENANCE = 43
};
enum ENUM_SYMBOL_INFO_STRING {
  SYMBOL_DESCRIPTION = 20, SYMBOL_CURRENCY_BASE = 22, SYMBOL_CURRENCY_PROFIT = 23, SYMBOL_CURRENCY_MARGIN = 24,
  SYMBOL_PATH = 21, SYMBOL_BASIS = 25, SYMBOL_ISIN = 56
};
// https://www.mql5.com/en/docs/constants/environment_state/marketinfoconstants#enum_symbol_trade_mode
enum ENUM_SYMBOL_TRADE_MODE {
  SYMBOL_TRADE_MODE_DISABLED = 0, SYMBOL_TRADE_MODE_LONGONLY = 1, SYMBOL_TRADE_MODE_SHORTONLY = 2,
  SYMBOL_TRADE_MODE_CLOSEONLY = 3, SYMBOL_TRADE_MODE_FULL = 4
};
// https://www.mql5.com/en/docs/constants/environment_state/marketinfoconstants#enum_symbol_trade_execution
enum ENUM_SYMBOL_TRADE_EXECUTION {
  SYMBOL_TRADE_EXECUTION_REQUEST = 0, SYMBOL_TRADE_EXECUTION_INSTANT = 1, SYMBOL_TRADE_EXECUTION_MARKET = 2,
  SYMBOL_TRADE_EXECUTION_EXCHANGE = 3
};

// https://www.mql5.com/en/docs/constants/structures/mqltick
struct MqlTick {
  datetime time = 0;
  double bid = 0;
  double ask = 0;
  double last = 0;
  ulong volume = 0;
  long time_msc = 0;
  uint flags = 0;
  double volume_real = 0;
};

// ---------------------------------------------------------------------------------------------
// MQL5 only: trade enums, structs, property ids, retcodes and errors
#ifdef __MQL5__

// https://www.mql5.com/en/docs/constants/tradingconstants/enum_trade_request_actions
enum ENUM_TRADE_REQUEST_ACTIONS {
  TRADE_ACTION_DEAL = 1, TRADE_ACTION_PENDING = 5, TRADE_ACTION_SLTP = 6, TRADE_ACTION_MODIFY = 7,
  TRADE_ACTION_REMOVE = 8, TRADE_ACTION_CLOSE_BY = 10
};
// https://www.mql5.com/en/docs/constants/tradingconstants/orderproperties#enum_order_type
enum ENUM_ORDER_TYPE {
  ORDER_TYPE_BUY = 0, ORDER_TYPE_SELL = 1, ORDER_TYPE_BUY_LIMIT = 2, ORDER_TYPE_SELL_LIMIT = 3, ORDER_TYPE_BUY_STOP = 4,
  ORDER_TYPE_SELL_STOP = 5, ORDER_TYPE_BUY_STOP_LIMIT = 6, ORDER_TYPE_SELL_STOP_LIMIT = 7, ORDER_TYPE_CLOSE_BY = 8
};
// https://www.mql5.com/en/docs/constants/tradingconstants/orderproperties#enum_order_type_filling
enum ENUM_ORDER_TYPE_FILLING { ORDER_FILLING_FOK = 0, ORDER_FILLING_IOC = 1, ORDER_FILLING_RETURN = 2, ORDER_FILLING_BOC = 3 };
// https://www.mql5.com/en/docs/constants/tradingconstants/orderproperties#enum_order_type_time
enum ENUM_ORDER_TYPE_TIME { ORDER_TIME_GTC = 0, ORDER_TIME_DAY = 1, ORDER_TIME_SPECIFIED = 2, ORDER_TIME_SPECIFIED_DAY = 3 };
// https://www.mql5.com/en/docs/constants/tradingconstants/orderproperties#enum_order_state
enum ENUM_ORDER_STATE {
  ORDER_STATE_STARTED = 0, ORDER_STATE_PLACED = 1, ORDER_STATE_CANCELED = 2, ORDER_STATE_PARTIAL = 3, ORDER_STATE_FILLED = 4,
  ORDER_STATE_REJECTED = 5, ORDER_STATE_EXPIRED = 6, ORDER_STATE_REQUEST_ADD = 7, ORDER_STATE_REQUEST_MODIFY = 8,
  ORDER_STATE_REQUEST_CANCEL = 9
};
// https://www.mql5.com/en/docs/constants/tradingconstants/orderproperties#enum_order_reason
enum ENUM_ORDER_REASON {
  ORDER_REASON_CLIENT = 0, ORDER_REASON_MOBILE = 1, ORDER_REASON_WEB = 2, ORDER_REASON_EXPERT = 3, ORDER_REASON_SL = 4,
  ORDER_REASON_TP = 5, ORDER_REASON_SO = 6
};
// https://www.mql5.com/en/docs/constants/tradingconstants/positionproperties
enum ENUM_POSITION_TYPE { POSITION_TYPE_BUY = 0, POSITION_TYPE_SELL = 1 };
enum ENUM_POSITION_REASON { POSITION_REASON_CLIENT = 0, POSITION_REASON_MOBILE = 1, POSITION_REASON_WEB = 2, POSITION_REASON_EXPERT = 3 };
// https://www.mql5.com/en/docs/constants/tradingconstants/dealproperties
enum ENUM_DEAL_TYPE {
  DEAL_TYPE_BUY = 0, DEAL_TYPE_SELL = 1, DEAL_TYPE_BALANCE = 2, DEAL_TYPE_CREDIT = 3, DEAL_TYPE_CHARGE = 4,
  DEAL_TYPE_CORRECTION = 5, DEAL_TYPE_BONUS = 6, DEAL_TYPE_COMMISSION = 7
};
enum ENUM_DEAL_ENTRY { DEAL_ENTRY_IN = 0, DEAL_ENTRY_OUT = 1, DEAL_ENTRY_INOUT = 2, DEAL_ENTRY_OUT_BY = 3 };
enum ENUM_DEAL_REASON {
  DEAL_REASON_CLIENT = 0, DEAL_REASON_MOBILE = 1, DEAL_REASON_WEB = 2, DEAL_REASON_EXPERT = 3, DEAL_REASON_SL = 4,
  DEAL_REASON_TP = 5, DEAL_REASON_SO = 6, DEAL_REASON_ROLLOVER = 7, DEAL_REASON_VMARGIN = 8, DEAL_REASON_SPLIT = 9
};
// https://www.mql5.com/en/docs/constants/tradingconstants/enum_trade_transaction_type
enum ENUM_TRADE_TRANSACTION_TYPE {
  TRADE_TRANSACTION_ORDER_ADD = 0, TRADE_TRANSACTION_ORDER_UPDATE = 1, TRADE_TRANSACTION_ORDER_DELETE = 2,
  TRADE_TRANSACTION_HISTORY_ADD = 3, TRADE_TRANSACTION_HISTORY_UPDATE = 4, TRADE_TRANSACTION_HISTORY_DELETE = 5,
  TRADE_TRANSACTION_DEAL_ADD = 6, TRADE_TRANSACTION_DEAL_UPDATE = 7, TRADE_TRANSACTION_DEAL_DELETE = 8,
  TRADE_TRANSACTION_POSITION = 9, TRADE_TRANSACTION_REQUEST = 10
};

// https://www.mql5.com/en/docs/constants/structures/mqltraderequest
struct MqlTradeRequest {
  ENUM_TRADE_REQUEST_ACTIONS action = (ENUM_TRADE_REQUEST_ACTIONS)0;
  ulong magic = 0;
  ulong order = 0;
  string symbol;
  double volume = 0;
  double price = 0;
  double stoplimit = 0;
  double sl = 0;
  double tp = 0;
  ulong deviation = 0;
  ENUM_ORDER_TYPE type = ORDER_TYPE_BUY;
  ENUM_ORDER_TYPE_FILLING type_filling = ORDER_FILLING_FOK;
  ENUM_ORDER_TYPE_TIME type_time = ORDER_TIME_GTC;
  datetime expiration = 0;
  string comment;
  ulong position = 0;
  ulong position_by = 0;
};
// https://www.mql5.com/en/docs/constants/structures/mqltraderesult
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
// https://www.mql5.com/en/docs/constants/structures/mqltradecheckresult
struct MqlTradeCheckResult {
  uint retcode = 0;
  double balance = 0;
  double equity = 0;
  double profit = 0;
  double margin = 0;
  double margin_free = 0;
  double margin_level = 0;
  string comment;
};
// https://www.mql5.com/en/docs/constants/structures/mqltradetransaction
struct MqlTradeTransaction {
  ulong deal = 0;
  ulong order = 0;
  string symbol;
  ENUM_TRADE_TRANSACTION_TYPE type = TRADE_TRANSACTION_ORDER_ADD;
  ENUM_ORDER_TYPE order_type = ORDER_TYPE_BUY;
  ENUM_ORDER_STATE order_state = ORDER_STATE_STARTED;
  ENUM_DEAL_TYPE deal_type = DEAL_TYPE_BUY;
  ENUM_ORDER_TYPE_TIME time_type = ORDER_TIME_GTC;
  datetime time_expiration = 0;
  double price = 0;
  double price_trigger = 0;
  double price_sl = 0;
  double price_tp = 0;
  double volume = 0;
  ulong position = 0;
  ulong position_by = 0;
};

// https://www.mql5.com/en/docs/constants/environment_state/marketinfoconstants#symbol_filling_mode
#define SYMBOL_FILLING_FOK 1
#define SYMBOL_FILLING_IOC 2
#define SYMBOL_FILLING_BOC 4
// https://www.mql5.com/en/docs/constants/environment_state/marketinfoconstants#symbol_expiration_mode
#define SYMBOL_EXPIRATION_GTC 1
#define SYMBOL_EXPIRATION_DAY 2
#define SYMBOL_EXPIRATION_SPECIFIED 4
#define SYMBOL_EXPIRATION_SPECIFIED_DAY 8
// https://www.mql5.com/en/docs/constants/environment_state/marketinfoconstants#symbol_order_mode
#define SYMBOL_ORDER_MARKET 1
#define SYMBOL_ORDER_LIMIT 2
#define SYMBOL_ORDER_STOP 4
#define SYMBOL_ORDER_STOP_LIMIT 8
#define SYMBOL_ORDER_SL 16
#define SYMBOL_ORDER_TP 32
#define SYMBOL_ORDER_CLOSEBY 64

// https://www.mql5.com/en/docs/constants/tradingconstants/positionproperties
enum ENUM_POSITION_PROPERTY_INTEGER {
  POSITION_TICKET = 0, POSITION_TIME = 1, POSITION_TIME_MSC = 2, POSITION_TIME_UPDATE = 3, POSITION_TIME_UPDATE_MSC = 4,
  POSITION_TYPE = 5, POSITION_MAGIC = 6, POSITION_IDENTIFIER = 7, POSITION_REASON = 8
};
enum ENUM_POSITION_PROPERTY_DOUBLE {
  POSITION_VOLUME = 20, POSITION_PRICE_OPEN = 21, POSITION_SL = 22, POSITION_TP = 23, POSITION_PRICE_CURRENT = 24,
  POSITION_SWAP = 25, POSITION_PROFIT = 26
};
enum ENUM_POSITION_PROPERTY_STRING { POSITION_SYMBOL = 40, POSITION_COMMENT = 41, POSITION_EXTERNAL_ID = 42 };
// https://www.mql5.com/en/docs/constants/tradingconstants/orderproperties
enum ENUM_ORDER_PROPERTY_INTEGER {
  ORDER_TICKET = 0, ORDER_TIME_SETUP = 1, ORDER_TYPE = 2, ORDER_STATE = 3, ORDER_TIME_EXPIRATION = 4, ORDER_TIME_DONE = 5,
  ORDER_TIME_SETUP_MSC = 6, ORDER_TIME_DONE_MSC = 7, ORDER_TYPE_FILLING = 8, ORDER_TYPE_TIME = 9, ORDER_MAGIC = 10,
  ORDER_REASON = 11, ORDER_POSITION_ID = 12, ORDER_POSITION_BY_ID = 13
};
enum ENUM_ORDER_PROPERTY_DOUBLE {
  ORDER_VOLUME_INITIAL = 20, ORDER_VOLUME_CURRENT = 21, ORDER_PRICE_OPEN = 22, ORDER_SL = 23, ORDER_TP = 24,
  ORDER_PRICE_CURRENT = 25, ORDER_PRICE_STOPLIMIT = 26
};
enum ENUM_ORDER_PROPERTY_STRING { ORDER_SYMBOL = 40, ORDER_COMMENT = 41, ORDER_EXTERNAL_ID = 42 };
// https://www.mql5.com/en/docs/constants/tradingconstants/dealproperties
enum ENUM_DEAL_PROPERTY_INTEGER {
  DEAL_TICKET = 0, DEAL_ORDER = 1, DEAL_TIME = 2, DEAL_TIME_MSC = 3, DEAL_TYPE = 4, DEAL_ENTRY = 5, DEAL_MAGIC = 6,
  DEAL_REASON = 7, DEAL_POSITION_ID = 8
};
enum ENUM_DEAL_PROPERTY_DOUBLE {
  DEAL_VOLUME = 20, DEAL_PRICE = 21, DEAL_COMMISSION = 22, DEAL_SWAP = 23, DEAL_PROFIT = 24, DEAL_FEE = 25, DEAL_SL = 26,
  DEAL_TP = 27
};
enum ENUM_DEAL_PROPERTY_STRING { DEAL_SYMBOL = 40, DEAL_COMMENT = 41, DEAL_EXTERNAL_ID = 42 };

// https://www.mql5.com/en/docs/constants/errorswarnings/enum_trade_return_codes
#define TRADE_RETCODE_REQUOTE 10004
#define TRADE_RETCODE_REJECT 10006
#define TRADE_RETCODE_CANCEL 10007
#define TRADE_RETCODE_PLACED 10008
#define TRADE_RETCODE_DONE 10009
#define TRADE_RETCODE_DONE_PARTIAL 10010
#define TRADE_RETCODE_ERROR 10011
#define TRADE_RETCODE_TIMEOUT 10012
#define TRADE_RETCODE_INVALID 10013
#define TRADE_RETCODE_INVALID_VOLUME 10014
#define TRADE_RETCODE_INVALID_PRICE 10015
#define TRADE_RETCODE_INVALID_STOPS 10016
#define TRADE_RETCODE_TRADE_DISABLED 10017
#define TRADE_RETCODE_MARKET_CLOSED 10018
#define TRADE_RETCODE_NO_MONEY 10019
#define TRADE_RETCODE_PRICE_CHANGED 10020
#define TRADE_RETCODE_PRICE_OFF 10021
#define TRADE_RETCODE_INVALID_EXPIRATION 10022
#define TRADE_RETCODE_ORDER_CHANGED 10023
#define TRADE_RETCODE_TOO_MANY_REQUESTS 10024
#define TRADE_RETCODE_NO_CHANGES 10025
#define TRADE_RETCODE_SERVER_DISABLES_AT 10026
#define TRADE_RETCODE_CLIENT_DISABLES_AT 10027
#define TRADE_RETCODE_LOCKED 10028
#define TRADE_RETCODE_FROZEN 10029
#define TRADE_RETCODE_INVALID_FILL 10030
#define TRADE_RETCODE_CONNECTION 10031
#define TRADE_RETCODE_ONLY_REAL 10032
#define TRADE_RETCODE_LIMIT_ORDERS 10033
#define TRADE_RETCODE_LIMIT_VOLUME 10034
#define TRADE_RETCODE_INVALID_ORDER 10035
#define TRADE_RETCODE_POSITION_CLOSED 10036
#define TRADE_RETCODE_INVALID_CLOSE_VOLUME 10038
#define TRADE_RETCODE_CLOSE_ORDER_EXIST 10039
#define TRADE_RETCODE_LIMIT_POSITIONS 10040
#define TRADE_RETCODE_REJECT_CANCEL 10041
#define TRADE_RETCODE_LONG_ONLY 10042
#define TRADE_RETCODE_SHORT_ONLY 10043
#define TRADE_RETCODE_CLOSE_ONLY 10044
#define TRADE_RETCODE_FIFO_CLOSE 10045
#define TRADE_RETCODE_HEDGE_PROHIBITED 10046

// https://www.mql5.com/en/docs/constants/errorswarnings/errorcodes (market, account, trade)
#define ERR_MARKET_UNKNOWN_SYMBOL 4301
#define ERR_MARKET_NOT_SELECTED 4302
#define ERR_MARKET_WRONG_PROPERTY 4303
#define ERR_MARKET_LASTTIME_UNKNOWN 4304
#define ERR_MARKET_SELECT_ERROR 4305
#define ERR_ACCOUNT_WRONG_PROPERTY 4701
#define ERR_TRADE_WRONG_PROPERTY 4751
#define ERR_TRADE_DISABLED 4752
#define ERR_TRADE_POSITION_NOT_FOUND 4753
#define ERR_TRADE_ORDER_NOT_FOUND 4754
#define ERR_TRADE_DEAL_NOT_FOUND 4755
#define ERR_TRADE_SEND_FAILED 4756
#define ERR_TRADE_CALC_FAILED 4758
#endif  // __MQL5__

#ifdef __MQL4__
// https://docs.mql4.com/constants/tradingconstants/orderproperties
#define OP_BUY 0
#define OP_SELL 1
#define OP_BUYLIMIT 2
#define OP_SELLLIMIT 3
#define OP_BUYSTOP 4
#define OP_SELLSTOP 5
// https://docs.mql4.com/trading/orderselect
#define SELECT_BY_POS 0
#define SELECT_BY_TICKET 1
#define MODE_TRADES 0
#define MODE_HISTORY 1
// https://docs.mql4.com/constants/environment_state/marketinfoconstants
#define MODE_LOW 1
#define MODE_HIGH 2
#define MODE_TIME 5
#define MODE_BID 9
#define MODE_ASK 10
#define MODE_POINT 11
#define MODE_DIGITS 12
#define MODE_SPREAD 13
#define MODE_STOPLEVEL 14
#define MODE_LOTSIZE 15
#define MODE_TICKVALUE 16
#define MODE_TICKSIZE 17
#define MODE_SWAPLONG 18
#define MODE_SWAPSHORT 19
#define MODE_STARTING 20
#define MODE_EXPIRATION 21
#define MODE_TRADEALLOWED 22
#define MODE_MINLOT 23
#define MODE_LOTSTEP 24
#define MODE_MAXLOT 25
#define MODE_SWAPTYPE 26
#define MODE_PROFITCALCMODE 27
#define MODE_MARGINCALCMODE 28
#define MODE_MARGININIT 29
#define MODE_MARGINMAINTENANCE 30
#define MODE_MARGINHEDGED 31
#define MODE_MARGINREQUIRED 32
#define MODE_FREEZELEVEL 33
#define MODE_CLOSEBY_ALLOWED 34
// https://docs.mql4.com/constants/errorswarnings/errorcodes (trade server and trade functions)
#define ERR_NO_RESULT 1
#define ERR_COMMON_ERROR 2
#define ERR_INVALID_TRADE_PARAMETERS 3
#define ERR_SERVER_BUSY 4
#define ERR_OLD_VERSION 5
#define ERR_NO_CONNECTION 6
#define ERR_NOT_ENOUGH_RIGHTS 7
#define ERR_TOO_FREQUENT_REQUESTS 8
#define ERR_MALFUNCTIONAL_TRADE 9
#define ERR_ACCOUNT_DISABLED 64
#define ERR_INVALID_ACCOUNT 65
#define ERR_TRADE_TIMEOUT 128
#define ERR_INVALID_PRICE 129
#define ERR_INVALID_STOPS 130
#define ERR_INVALID_TRADE_VOLUME 131
#define ERR_MARKET_CLOSED 132
#define ERR_TRADE_DISABLED 133
#define ERR_NOT_ENOUGH_MONEY 134
#define ERR_PRICE_CHANGED 135
#define ERR_OFF_QUOTES 136
#define ERR_BROKER_BUSY 137
#define ERR_REQUOTE 138
#define ERR_ORDER_LOCKED 139
#define ERR_LONG_POSITIONS_ONLY_ALLOWED 140
#define ERR_TOO_MANY_REQUESTS 141
#define ERR_TRADE_MODIFY_DENIED 145
#define ERR_TRADE_CONTEXT_BUSY 146
#define ERR_TRADE_EXPIRATION_DENIED 147
#define ERR_TRADE_TOO_MANY_ORDERS 148
#define ERR_TRADE_HEDGE_PROHIBITED 149
#define ERR_TRADE_PROHIBITED_BY_FIFO 150
#define ERR_NO_ORDER_SELECTED 4105
#define ERR_UNKNOWN_SYMBOL 4106
#define ERR_INVALID_PRICE_PARAM 4107
#define ERR_INVALID_TICKET 4108
#define ERR_TRADE_NOT_ALLOWED 4109
#define ERR_LONGS_NOT_ALLOWED 4110
#define ERR_SHORTS_NOT_ALLOWED 4111
#define ERR_TRADE_EXPERT_DISABLED_BY_SERVER 4112
#endif  // __MQL4__
