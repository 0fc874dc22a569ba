//+------------------------------------------------------------------+
//| CopyBridgeSlave.mq4                                               |
//| CopyBridge slave EA for MetaTrader 4: long-polls the CopyBridge   |
//| server for copy orders, executes them on this account (magic      |
//| InpMagic, comment cb:<masterTicket>) and reports every outcome.   |
//| Thin wiring only: the logic lives in CopyBridge/SlaveCore.mqh,    |
//| the MT4 trade specifics in CopyBridge/Platform4.mqh.              |
//| Setup: add the server URL under Tools → Options → Expert Advisors |
//| → Allow WebRequest for listed URL, and enable AutoTrading.       |
//+------------------------------------------------------------------+
#property copyright "CopyBridge"
#property link      "https://github.com/copybridge"
#property version   "1.00"
#property description "CopyBridge slave: executes the master's trades received from the CopyBridge server."
#property strict

#include <CopyBridge/Types.mqh>
#include <CopyBridge/Platform4.mqh>
#include <CopyBridge/SlaveCore.mqh>

input string InpServerUrl = "";          // Server URL (e.g. https://copy.example.com)
input string InpApiKey = "";             // API key (SLAVE scope, cbk_...)
input string InpApiSecret = "";          // API secret (64 hex characters)
input string InpAccountNumber = "";      // Slave account number (only for keys not bound to an account)
input int    InpMagic = 20241121;        // Magic number of copied orders
input int    InpPollWaitMs = 3000;       // Order long-poll wait, ms (0-25000)
input int    InpHeartbeatSec = 5;        // Heartbeat interval, seconds (1-60, 5-10 recommended)
input int    InpTimeoutMs = 5000;        // Server request timeout, ms (1000-20000)
input int    InpDeviationPts = -1;       // Max slippage, points (-1 = bridge setting)
input int    InpMaxSpreadPts = -1;       // Max spread to open, points (-1 = bridge setting)
input int    InpRetryMax = -1;           // Broker retries on requote (-1 = bridge setting)
input int    InpRetryBackoffMs = -1;     // Pause between broker retries, ms (-1 = bridge setting)
input int    InpSlipToMarket = -1;       // Passed pending price -> market order: 1 yes, 0 no, -1 bridge setting
input string InpSymbolWhitelist = "";    // Copy only these symbols, comma-separated (empty = all)
input string InpSymbolBlacklist = "";    // Never copy these symbols, comma-separated
input string InpTradingHours = "";       // Trading hours, broker time (e.g. Mon-Fri:00:00-23:59; empty = always)
input double InpEquityMin = -1.0;        // Minimum equity to open, account currency (-1 = bridge setting)
input int    InpVerbosity = 1;           // Log detail: 0 errors, 1 info, 2 debug

CbSlave g_slave;

//+------------------------------------------------------------------+
//| true when `s` is exactly `count` hexadecimal characters.          |
//+------------------------------------------------------------------+
bool CbIsHex(const string s,const int count)
  {
   if(StringLen(s)!=count)
      return false;
   for(int i=0; i<count; i++)
     {
      ushort c=StringGetCharacter(s,i);
      bool digit=(c>='0' && c<='9');
      bool lower=(c>='a' && c<='f');
      bool upper=(c>='A' && c<='F');
      if(!digit && !lower && !upper)
         return false;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| true when `s` is empty or only decimal digits.                    |
//+------------------------------------------------------------------+
bool CbIsDigits(const string s)
  {
   int n=StringLen(s);
   for(int i=0; i<n; i++)
     {
      ushort c=StringGetCharacter(s,i);
      if(c<'0' || c>'9')
         return false;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Prints why an input is refused; returns INIT_PARAMETERS_INCORRECT.|
//+------------------------------------------------------------------+
int CbRefuse(const string input_name,const string why)
  {
   Print("CopyBridge slave: invalid input "+input_name+": "+why);
   return INIT_PARAMETERS_INCORRECT;
  }

//+------------------------------------------------------------------+
//| Validates the inputs, starts the core and the timer.              |
//+------------------------------------------------------------------+
int OnInit()
  {
   if(StringFind(InpServerUrl,"http://")!=0 && StringFind(InpServerUrl,"https://")!=0)
      return CbRefuse("InpServerUrl","must start with http:// or https://");
   if(StringLen(InpApiKey)<4 || StringFind(InpApiKey," ")>=0)
      return CbRefuse("InpApiKey","enter the API key of a SLAVE key from the dashboard");
   if(!CbIsHex(InpApiSecret,64))
      return CbRefuse("InpApiSecret","must be the 64 hexadecimal characters shown when the key was created");
   if(!CbIsDigits(InpAccountNumber))
      return CbRefuse("InpAccountNumber","digits only, or empty for a key bound to an account");
   if(InpMagic<=0)
      return CbRefuse("InpMagic","a positive number");
   if(InpPollWaitMs<0 || InpPollWaitMs>25000)
      return CbRefuse("InpPollWaitMs","between 0 and 25000 ms");
   if(InpHeartbeatSec<1 || InpHeartbeatSec>60)
      return CbRefuse("InpHeartbeatSec","between 1 and 60 seconds");
   if(InpTimeoutMs<1000 || InpTimeoutMs>20000)
      return CbRefuse("InpTimeoutMs","between 1000 and 20000 ms");
   if(InpDeviationPts<-1)
      return CbRefuse("InpDeviationPts","-1 or a number of points >= 0");
   if(InpMaxSpreadPts<-1)
      return CbRefuse("InpMaxSpreadPts","-1 or a number of points >= 0");
   if(InpRetryMax<-1 || InpRetryMax>100)
      return CbRefuse("InpRetryMax","-1 or between 0 and 100");
   if(InpRetryBackoffMs<-1 || InpRetryBackoffMs>60000)
      return CbRefuse("InpRetryBackoffMs","-1 or between 0 and 60000 ms");
   if(InpSlipToMarket<-1 || InpSlipToMarket>1)
      return CbRefuse("InpSlipToMarket","1, 0 or -1");
   if(InpEquityMin<-1.0)
      return CbRefuse("InpEquityMin","-1 or an amount >= 0");
   if(InpVerbosity<0 || InpVerbosity>2)
      return CbRefuse("InpVerbosity","0, 1 or 2");
   CbSlaveSettings s;
   s.url=InpServerUrl;
   s.apiKey=InpApiKey;
   s.secret=InpApiSecret;
   s.accountNumber=InpAccountNumber;
   s.magic=InpMagic;
   s.pollWaitMs=InpPollWaitMs;
   s.heartbeatSec=InpHeartbeatSec;
   s.timeoutMs=InpTimeoutMs;
   s.verbosity=InpVerbosity;
   s.symbolWhitelist=InpSymbolWhitelist;
   s.symbolBlacklist=InpSymbolBlacklist;
   s.tradingHours=InpTradingHours;
   s.equityMin=InpEquityMin;
   s.maxSpreadPts=InpMaxSpreadPts;
   s.maxDeviationPts=InpDeviationPts;
   s.retryMax=InpRetryMax;
   s.retryBackoffMs=InpRetryBackoffMs;
   s.slipToMarket=InpSlipToMarket;
   if(!g_slave.Init(s))
      return INIT_PARAMETERS_INCORRECT;
   if(!EventSetMillisecondTimer(200))
     {
      Print("CopyBridge slave: EventSetMillisecondTimer failed, error "+IntegerToString(GetLastError()));
      return INIT_FAILED;
     }
   return INIT_SUCCEEDED;
  }

//+------------------------------------------------------------------+
//| Stops the timer, saves the core's state, clears the chart text.   |
//+------------------------------------------------------------------+
void OnDeinit(const int reason)
  {
   EventKillTimer();
   g_slave.Deinit(reason);
   Comment("");
  }

//+------------------------------------------------------------------+
//| One long-poll round: orders executed and reported, heartbeat and  |
//| snapshot when due (blocks at most InpPollWaitMs + the timeout).   |
//+------------------------------------------------------------------+
void OnTimer()
  {
   g_slave.OnTimer();
  }

//+------------------------------------------------------------------+
//| Nothing to do per tick: orders arrive through the timer's poll.   |
//+------------------------------------------------------------------+
void OnTick()
  {
  }
//+------------------------------------------------------------------+
