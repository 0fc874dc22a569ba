//+------------------------------------------------------------------+
//| CopyBridge/Status.mqh                                    [shared] |
//| The one-line chart status (Comment) and the Experts-log lines     |
//| with a verbosity: 0 errors only, 1 info, 2 debug.                 |
//| Chart line:                                                       |
//|  CopyBridge <Master|Slave> <MT4|MT5> | <connected|ERROR: …> |     |
//|  [close-only | ]last heartbeat HH:MM:SS | orders today N          |
//| (close-only: slave only, while the bridge's config says so).      |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_STATUS_MQH
#define COPYBRIDGE_STATUS_MQH

#define CB_LOG_ERROR 0
#define CB_LOG_INFO  1
#define CB_LOG_DEBUG 2

int g_cbVerbosity=CB_LOG_INFO;

//--- sets the log verbosity (0 errors, 1 info, 2 debug; clamped)
void CbSetVerbosity(const int level)
  {
   g_cbVerbosity=level;
   if(g_cbVerbosity<CB_LOG_ERROR)
      g_cbVerbosity=CB_LOG_ERROR;
   if(g_cbVerbosity>CB_LOG_DEBUG)
      g_cbVerbosity=CB_LOG_DEBUG;
  }

//--- prints "CopyBridge: <text>" when level <= verbosity
void CbLog(const int level,const string text)
  {
   if(level>g_cbVerbosity)
      return;
   string tag="";
   if(level==CB_LOG_ERROR)
      tag="ERROR ";
   else
      if(level==CB_LOG_DEBUG)
         tag="debug ";
   Print("CopyBridge: "+tag+text);
  }

//--- error line (always printed)
void CbLogError(const string text) { CbLog(CB_LOG_ERROR,text); }
//--- info line (verbosity >= 1)
void CbLogInfo(const string text) { CbLog(CB_LOG_INFO,text); }
//--- debug line (verbosity >= 2)
void CbLogDebug(const string text) { CbLog(CB_LOG_DEBUG,text); }

//+------------------------------------------------------------------+
//| Chart status line. Call Show() after a change (it only calls     |
//| Comment when the text changed).                                  |
//+------------------------------------------------------------------+
class CbStatus
  {
private:
   string            m_role;          // "Master" | "Slave"
   string            m_platform;      // "MT4" | "MT5"
   string            m_error;         // "" = connected
   bool              m_connected;     // at least one answer from the bridge
   datetime          m_lastHeartbeat; // local time of the last acknowledged heartbeat, 0 = never
   int               m_ordersToday;
   bool              m_closeOnly;     // the bridge put the account in close-only
   datetime          m_day;           // start of the local day the counter belongs to
   string            m_shown;

   static datetime   DayStart(const datetime t) { return((datetime)(((long)t/86400)*86400)); }
   void              RollDay(void)
     {
      datetime d=DayStart(TimeLocal());
      if(d!=m_day)
        {
         m_day=d;
         m_ordersToday=0;
        }
     }

public:
                     CbStatus(void)
     {
      m_role="";
      m_platform="";
      m_error="";
      m_connected=false;
      m_lastHeartbeat=0;
      m_ordersToday=0;
      m_closeOnly=false;
      m_day=0;
      m_shown="";
     }
   //--- role "Master"/"Slave" and platform "MT4"/"MT5" shown at the start of the line
   void              Init(const string role,const string platform)
     {
      m_role=role;
      m_platform=platform;
      m_day=DayStart(TimeLocal());
     }
   //--- marks the bridge reachable and clears the error text
   void              SetConnected(void) { m_connected=true; m_error=""; }
   //--- shows "ERROR: <text>" until the next SetConnected()
   void              SetError(const string text) { m_error=text; }
   //--- current error text ("" = none)
   string            Error(void) const { return(m_error); }
   //--- records an acknowledged heartbeat now (local time)
   void              HeartbeatOk(void) { m_lastHeartbeat=TimeLocal(); SetConnected(); }
   //--- shows "close-only" on the line while on (the bridge refuses new opens for the account)
   void              SetCloseOnly(const bool on) { m_closeOnly=on; }
   //--- true while "close-only" is shown
   bool              CloseOnly(void) const { return(m_closeOnly); }
   //--- counts one executed order (the counter restarts each local day)
   void              AddOrder(void) { RollDay(); m_ordersToday++; }
   //--- orders counted today
   int               OrdersToday(void) { RollDay(); return(m_ordersToday); }
   //--- the status line text
   string            Text(void)
     {
      RollDay();
      string state="connecting";
      if(m_error!="")
         state="ERROR: "+m_error;
      else
         if(m_connected)
            state="connected";
      string hb="never";
      if(m_lastHeartbeat>0)
         hb=TimeToString(m_lastHeartbeat,TIME_SECONDS);
      if(m_closeOnly)
         state=state+" | close-only";
      return("CopyBridge "+m_role+" "+m_platform+" | "+state+" | last heartbeat "+hb+
             " | orders today "+IntegerToString(m_ordersToday));
     }
   //--- writes the line on the chart when it changed
   void              Show(void)
     {
      string t=Text();
      if(t==m_shown)
         return;
      m_shown=t;
      Comment(t);
     }
   //--- clears the chart line (OnDeinit)
   void              Clear(void) { m_shown=""; Comment(""); }
  };

#endif // COPYBRIDGE_STATUS_MQH
