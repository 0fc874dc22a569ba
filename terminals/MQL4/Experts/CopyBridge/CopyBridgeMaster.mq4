//+------------------------------------------------------------------+
//| CopyBridgeMaster.mq4                                              |
//| CopyBridge master EA for MetaTrader 4: watches this account's     |
//| positions and pending orders and sends every open, modify, close  |
//| and pending change to the CopyBridge server as a signed event.    |
//| Thin wiring only: the logic lives in CopyBridge/MasterCore.mqh,   |
//| the MT4 specifics in CopyBridge/Platform4.mqh.                    |
//| Setup: add the server URL under Tools → Options → Expert Advisors |
//| → Allow WebRequest for listed URL, and enable AutoTrading.       |
//+------------------------------------------------------------------+
#property copyright "CopyBridge"
#property link      "https://github.com/copybridge"
#property version   "1.00"
#property description "CopyBridge master: sends this account's trades to the CopyBridge server."
#property strict

#include <CopyBridge/Types.mqh>
#include <CopyBridge/Platform4.mqh>
#include <CopyBridge/MasterCore.mqh>

input string InpServerUrl = "";          // Server URL (e.g. https://copy.example.com)
input string InpApiKey = "";             // API key (MASTER scope, cbk_...)
input string InpApiSecret = "";          // API secret (64 hex characters)
input string InpAlias = "";              // Master alias shown with signals (optional)
input long   InpMagicFilter = -1;        // Copy only trades with this magic number (-1 = all)
input int    InpTimerMs = 500;           // Timer interval, ms: book diff after a trade, outbox resend (100-10000)
input int    InpHeartbeatSec = 5;        // Heartbeat interval, seconds (1-60, 5-10 recommended)
input int    InpTimeoutMs = 5000;        // Server request timeout, ms (1000-20000)
input int    InpVerbosity = 1;           // Log detail: 0 errors, 1 info, 2 debug

CbMaster g_master;

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
//| Prints why an input is refused; returns INIT_PARAMETERS_INCORRECT.|
//+------------------------------------------------------------------+
int CbRefuse(const string input_name,const string why)
  {
   Print("CopyBridge master: invalid input "+input_name+": "+why);
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
      return CbRefuse("InpApiKey","enter the API key of a MASTER key from the dashboard");
   if(!CbIsHex(InpApiSecret,64))
      return CbRefuse("InpApiSecret","must be the 64 hexadecimal characters shown when the key was created");
   if(StringLen(InpAlias)>100)
      return CbRefuse("InpAlias","at most 100 characters");
   if(InpMagicFilter<-1)
      return CbRefuse("InpMagicFilter","-1 (all trades) or a magic number >= 0");
   if(InpTimerMs<100 || InpTimerMs>10000)
      return CbRefuse("InpTimerMs","between 100 and 10000 ms");
   if(InpHeartbeatSec<1 || InpHeartbeatSec>60)
      return CbRefuse("InpHeartbeatSec","between 1 and 60 seconds");
   if(InpTimeoutMs<1000 || InpTimeoutMs>20000)
      return CbRefuse("InpTimeoutMs","between 1000 and 20000 ms");
   if(InpVerbosity<0 || InpVerbosity>2)
      return CbRefuse("InpVerbosity","0, 1 or 2");
   CbMasterSettings s;
   s.url=InpServerUrl;
   s.apiKey=InpApiKey;
   s.secret=InpApiSecret;
   s.alias=InpAlias;
   s.magicFilter=InpMagicFilter;
   s.heartbeatSec=InpHeartbeatSec;
   s.timeoutMs=InpTimeoutMs;
   s.verbosity=InpVerbosity;
   if(!g_master.Init(s))
      return INIT_PARAMETERS_INCORRECT;
   if(!EventSetMillisecondTimer(InpTimerMs))
     {
      Print("CopyBridge master: EventSetMillisecondTimer failed, error "+IntegerToString(GetLastError()));
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
   g_master.Deinit(reason);
   Comment("");
  }

//+------------------------------------------------------------------+
//| Book diff, outbox resend, heartbeat and snapshot when due.        |
//+------------------------------------------------------------------+
void OnTimer()
  {
   g_master.OnTimer();
  }

//+------------------------------------------------------------------+
//| MQL4 has no OnTradeTransaction: a tick is the cheap moment to let |
//| the core diff the book (its timer diff catches quiet markets).    |
//+------------------------------------------------------------------+
void OnTick()
  {
   g_master.OnTradeEvent();
  }
//+------------------------------------------------------------------+
