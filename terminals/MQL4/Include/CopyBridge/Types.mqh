//+------------------------------------------------------------------+
//| CopyBridge/Types.mqh                                     [shared] |
//| Value types shared by the cores (MasterCore, SlaveCore) and the   |
//| platform layers (Platform4.mqh / Platform5.mqh).                  |
//| Units: volumes in lots, prices as quoted, distances in points,    |
//| money in account currency, times in seconds (datetime) unless a   |
//| name says Ms. Tickets are strings everywhere (MT5 tickets are     |
//| 64-bit and do not survive a double).                              |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_TYPES_MQH
#define COPYBRIDGE_TYPES_MQH

//--- one open position or pending order of the account (CbReadBook)
struct CbBookEntry
  {
   string            ticket;          // position / order ticket, decimal digits
   string            symbol;          // broker symbol
   string            side;            // "BUY" | "SELL"
   string            orderType;       // "MARKET" (positions) | "LIMIT" | "STOP" | "STOP_LIMIT"
   double            volume;          // lots (current volume)
   double            price;           // open price (positions) / order price (pending)
   double            stopLimitPrice;  // STOP_LIMIT only: limit price placed on trigger, else 0
   double            sl;              // stop loss price, 0 = none
   double            tp;              // take profit price, 0 = none
   long              magic;           // magic number
   string            comment;         // order comment
   datetime          time;            // open time (positions) / setup time (pending), server time
   int               digits;          // price digits of the symbol
   double            currentPrice;    // positions: price it would close at now (bid BUY, ask SELL), 0 = unknown
                     CbBookEntry(void)
     {
      ticket="";
      symbol="";
      side="";
      orderType="";
      volume=0.0;
      price=0.0;
      stopLimitPrice=0.0;
      sl=0.0;
      tp=0.0;
      magic=0;
      comment="";
      time=0;
      digits=5;
      currentPrice=0.0;
     }
  };

//--- account state for heartbeats (CbReadAccount)
struct CbAccountInfo
  {
   string            login;              // account number, decimal digits
   string            server;             // trade server name
   string            company;            // broker company
   string            currency;           // deposit currency, 3 letters
   double            balance;            // account currency
   double            equity;             // account currency
   double            margin;             // used margin, account currency
   double            freeMargin;         // free margin, account currency
   int               leverage;           // e.g. 100 for 1:100
   string            marginMode;         // "hedging" | "netting" | "exchange"
   int               brokerUtcOffsetSec; // broker server time - UTC, seconds
                     CbAccountInfo(void)
     {
      login="";
      server="";
      company="";
      currency="USD";
      balance=0.0;
      equity=0.0;
      margin=0.0;
      freeMargin=0.0;
      leverage=0;
      marginMode="hedging";
      brokerUtcOffsetSec=0;
     }
  };

//--- trading specification of one symbol (CbReadSymbolSpec, /v1/slave/symbols)
struct CbSymbolSpec
  {
   string            symbol;        // broker symbol
   int               digits;        // price digits
   double            point;         // point size (price units)
   double            volumeMin;     // lots
   double            volumeStep;    // lots
   double            volumeMax;     // lots
   double            contractSize;  // units per lot
   double            tickSize;      // price units
   double            tickValue;     // account currency per tick per lot
   string            tradeMode;     // "disabled"|"long_only"|"short_only"|"close_only"|"full"
   int               stopsLevel;    // points
                     CbSymbolSpec(void)
     {
      symbol="";
      digits=5;
      point=0.0;
      volumeMin=0.0;
      volumeStep=0.0;
      volumeMax=0.0;
      contractSize=0.0;
      tickSize=0.0;
      tickValue=0.0;
      tradeMode="full";
      stopsLevel=0;
     }
  };

//--- one slave order of a poll answer (CbParseOrders). Decimals are kept both as the
//--- server's text (…Str, "" when null) and parsed (0 when null).
struct CbOrder
  {
   string            orderId;          // uuid
   string            action;           // OPEN|MODIFY|CLOSE|PENDING_OPEN|PENDING_MODIFY|PENDING_CANCEL|CLOSE_ALL
   string            signalId;         // uuid or ""
   string            masterTicket;     // "" when null
   string            slaveTicket;      // "" when null
   string            symbol;           // slave symbol, "" when null
   string            side;             // "BUY"|"SELL"|""
   string            orderType;        // "MARKET"|"LIMIT"|"STOP"|"STOP_LIMIT"|""
   string            volumeStr;        // lots as text
   double            volume;           // lots
   string            priceStr;         // price as text
   double            price;            // price, 0 when null
   string            stopLimitPriceStr;
   double            stopLimitPrice;   // STOP_LIMIT limit price, 0 when null
   string            slStr;
   double            sl;               // 0 = none
   string            tpStr;
   double            tp;               // 0 = none
   string            comment;          // e.g. "cb:90000001"
   string            magicStr;         // as sent, "" when null
   long              magic;            // 0 when null
   int               maxSpreadPts;     // points, -1 when null (no limit)
   int               maxDeviationPts;  // points, -1 when null (no limit)
   long              createdAtMs;      // unix ms
   int               deliveryCount;    // 1 on first delivery
   long              expiresAtMs;      // unix ms after which an OPEN/PENDING_OPEN must not run, 0 when null
                     CbOrder(void)
     {
      orderId="";
      action="";
      signalId="";
      masterTicket="";
      slaveTicket="";
      symbol="";
      side="";
      orderType="";
      volumeStr="";
      volume=0.0;
      priceStr="";
      price=0.0;
      stopLimitPriceStr="";
      stopLimitPrice=0.0;
      slStr="";
      sl=0.0;
      tpStr="";
      tp=0.0;
      comment="";
      magicStr="";
      magic=0;
      maxSpreadPts=-1;
      maxDeviationPts=-1;
      createdAtMs=0;
      deliveryCount=0;
      expiresAtMs=0;
     }
  };

//--- the comment a copy carries (docs/bridge-protocol.md §10.4): the order's own comment when the
//--- bridge sent one starting with "cb:" (`cb:<ticket>` for leg 0, `cb:<ticket>/<leg>` for a
//--- netting master's later legs), else `cb:<masterTicket>`; at most 31 characters (MT4 keeps no
//--- more). Using the bridge's text keeps a leg-1 open from being taken for leg 0's position.
string CbCopyCommentOf(const CbOrder &o)
  {
   if(StringFind(o.comment,"cb:")==0)
      return(StringSubstr(o.comment,0,31));
   if(o.masterTicket!="")
      return(StringSubstr("cb:"+o.masterTicket,0,31));
   return(o.comment);
  }

//--- outcome of one executed slave order (CbExecute), becomes the execution report
struct CbOutcome
  {
   string            status;          // filled|placed|modified|closed|cancelled|rejected|error
   string            ticket;          // slave ticket created / acted on, "" = none
   string            remainingTicket; // MT4 partial close: ticket of the remainder, "" = none
   double            fillPrice;       // execution price (open or close), 0 = none
   double            volume;          // lots filled / closed, 0 = none
   double            fillTime;        // unix seconds (UTC), fractions allowed, 0 = none
   double            point;           // symbol point size, 0 = unknown
   int               digits;          // price digits for fillPrice, -1 = unknown
   double            profit;          // realised profit of a close, account currency
   bool              hasProfit;       // profit is meaningful (closes)
   int               errorCode;       // broker / EA error code, 0 = none
   string            errorMessage;    // "" = none
   long              executedAtMs;    // CbClockMs() when the trade call returned (a pending order: placed), 0 = unknown
                     CbOutcome(void)
     {
      status="";
      ticket="";
      remainingTicket="";
      fillPrice=0.0;
      volume=0.0;
      fillTime=0.0;
      point=0.0;
      digits=-1;
      profit=0.0;
      hasProfit=false;
      errorCode=0;
      errorMessage="";
      executedAtMs=0;
     }
  };

//--- effective EA profile: config.profile of the bridge merged with the local inputs
//--- (SlaveCore decides which wins), plus riskEnabled / maxSpreadPts / maxDeviationPts /
//--- closeOnly of the bridge's config
struct CbProfile
  {
   bool              present;          // config.profile was not null
   int               retryMax;         // broker retries (requote, price changed…)
   int               retryBackoffMs;   // ms between retries (doubled each time by the platform)
   bool              slipToMarket;     // pending price already passed → market order
   string            symbolWhitelist;  // comma-separated, "" = all symbols allowed
   string            symbolBlacklist;  // comma-separated, "" = none blocked
   string            tradingHours;     // e.g. "Mon-Fri:00:00-23:59", broker time, "" = always
   double            equityMin;        // account currency, 0 = none
   bool              overrideLocal;    // bridge values win over the EA inputs
   bool              riskEnabled;      // config.riskEnabled
   int               maxSpreadPts;     // points, -1 = no limit
   int               maxDeviationPts;  // points (slippage allowed on market orders), -1 = none
   bool              closeOnly;        // config.closeOnly: refuse OPEN / PENDING_OPEN (protection)
                     CbProfile(void)
     {
      present=false;
      retryMax=3;
      retryBackoffMs=300;
      slipToMarket=true;
      symbolWhitelist="";
      symbolBlacklist="";
      tradingHours="";
      equityMin=0.0;
      overrideLocal=false;
      riskEnabled=false;
      maxSpreadPts=-1;
      maxDeviationPts=-1;
      closeOnly=false;
     }
  };

//--- master EA settings (from its inputs) for CbMaster::Init
struct CbMasterSettings
  {
   string            url;           // bridge base URL, http(s)://host[:port]
   string            apiKey;        // MASTER key id, cbk_…
   string            secret;        // 64 hex chars
   string            alias;         // optional master alias sent with events, "" = none
   long              magicFilter;   // copy only this magic, -1 = every trade
   int               heartbeatSec;  // seconds between heartbeats (5–10)
   int               snapshotSec;   // seconds between snapshots (300)
   int               timeoutMs;     // WebRequest timeout per attempt, ms
   int               verbosity;     // 0 errors, 1 info, 2 debug
                     CbMasterSettings(void)
     {
      url="";
      apiKey="";
      secret="";
      alias="";
      magicFilter=-1;
      heartbeatSec=5;
      snapshotSec=300;
      timeoutMs=5000;
      verbosity=1;
     }
  };

//--- slave EA settings (from its inputs) for CbSlave::Init. Local profile values
//--- are "unset" at -1 / "" and then the bridge's config.profile applies.
struct CbSlaveSettings
  {
   string            url;             // bridge base URL, http(s)://host[:port]
   string            apiKey;          // SLAVE key id, cbk_…
   string            secret;          // 64 hex chars
   string            accountNumber;   // for unbound keys, "" = the key's bound account
   int               magic;           // magic number put on copied orders (20241121)
   int               pollWaitMs;      // long-poll wait, ms (3000)
   int               heartbeatSec;    // seconds between heartbeats (5)
   int               snapshotSec;     // seconds between snapshots (300)
   int               timeoutMs;       // WebRequest timeout per attempt (non-poll), ms
   int               verbosity;       // 0 errors, 1 info, 2 debug
   //--- local profile (the EA inputs); -1 / "" = unset
   string            symbolWhitelist; // comma-separated
   string            symbolBlacklist; // comma-separated
   string            tradingHours;    // "Mon-Fri:00:00-23:59", broker time
   double            equityMin;       // account currency, -1 = unset
   int               maxSpreadPts;    // points, -1 = unset
   int               maxDeviationPts; // points, -1 = unset
   int               retryMax;        // -1 = unset
   int               retryBackoffMs;  // ms, -1 = unset
   int               slipToMarket;    // 1 yes, 0 no, -1 = unset
                     CbSlaveSettings(void)
     {
      url="";
      apiKey="";
      secret="";
      accountNumber="";
      magic=20241121;
      pollWaitMs=3000;
      heartbeatSec=5;
      snapshotSec=300;
      timeoutMs=5000;
      verbosity=1;
      symbolWhitelist="";
      symbolBlacklist="";
      tradingHours="";
      equityMin=-1.0;
      maxSpreadPts=-1;
      maxDeviationPts=-1;
      retryMax=-1;
      retryBackoffMs=-1;
      slipToMarket=-1;
     }
  };

#endif // COPYBRIDGE_TYPES_MQH
