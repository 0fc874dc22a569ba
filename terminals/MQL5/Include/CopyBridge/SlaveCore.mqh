//+------------------------------------------------------------------+
//| CopyBridge/SlaveCore.mqh                                 [shared] |
//| The slave EA's logic (CbSlave): heartbeat (margin fields, margin  |
//| mode, broker UTC offset), long-poll of /v1/slave/orders/poll      |
//| (redeliver on the first poll after start), and for each order in  |
//| the order given:                                                  |
//|  - already executed → its stored report body goes again on the    |
//|    next poll, nothing is traded;                                  |
//|  - marked executing (crash mid-execution) → the book is searched  |
//|    for the copy (magic + comment cb:<masterTicket>) first: never  |
//|    open twice;                                                    |
//|  - OPEN / PENDING_OPEN past its expiresAtMs (TimeGMT-based, unix  |
//|    ms) → the book is searched for the copy as above (a redelivery |
//|    after a crash reports what was done), else `rejected` "Signal  |
//|    expired: older than its lifetime", no broker request;          |
//|  - OPEN / PENDING_OPEN while the bridge's config.closeOnly is set |
//|    → `rejected` "Close-only: the account takes no new positions", |
//|    no broker request (MODIFY, CLOSE, PENDING_*, CLOSE_ALL run);   |
//|  - profile checks on opens (symbol whitelist / blacklist, trading |
//|    hours in broker time, minimum equity, maximum spread), the     |
//|    symbol's spec sent to /v1/slave/symbols when new or changed,   |
//|    then CbExecute and the report. masterTicket → slaveTicket is   |
//|    kept for MODIFY/CLOSE orders whose slaveTicket is null.        |
//| Reports ride on the next poll (docs/bridge-protocol.md §6.2       |
//| "Reports on the poll"): after a poll that brought orders the EA   |
//| polls again at once with their reports, so one request per order  |
//| both reports it and waits for the next; a bridge that answers     |
//| without `reports` gets them on /v1/slave/execution/report.        |
//| Unparseable or unknown orders are reported `rejected` with the    |
//| reason and the EA goes on. Snapshot on start and every 5 minutes. |
//| The effective profile: config.profile of the bridge wins over the |
//| EA inputs when overrideLocal is set or when an input is unset.    |
//|                                                                   |
//| EA usage (include Platform5.mqh / Platform4.mqh BEFORE this file):|
//|   CbSlave g_slave;                                                |
//|   OnInit:   CbSlaveSettings s; s.url=InpServerUrl; …              |
//|             if(!g_slave.Init(s)) return(INIT_PARAMETERS_INCORRECT);|
//|             EventSetTimer(1);                                     |
//|   OnTimer:  g_slave.OnTimer();   (blocks up to pollWaitMs + 5 s)  |
//|   OnDeinit: EventKillTimer(); g_slave.Deinit(reason);             |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_SLAVECORE_MQH
#define COPYBRIDGE_SLAVECORE_MQH

#include "Types.mqh"
#include "Hmac.mqh"
#include "Json.mqh"
#include "Http.mqh"
#include "Protocol.mqh"
#include "Store.mqh"
#include "Status.mqh"

//--- store keys: os.<orderId> state "executing|<utc>|<ticket>|<volume before>" / "done|<utc>" /
//--- "reported|<utc>", rb.<orderId> report body, mt.<masterTicket>[/<leg>] "<slaveTicket>|<utc>",
//--- sp.<symbol> SHA-256 hex of the last reported spec

#define CB_SLAVE_ORDER_KEEP_SEC   86400     // reported orders remembered this long (s)
#define CB_SLAVE_MAP_KEEP_SEC     2592000   // masterTicket → slaveTicket kept 30 days (s)
#define CB_SLAVE_POLL_LIMIT       50        // orders per poll answer
#define CB_SLAVE_POLL_REPORTS     50        // reports carried by one poll (the bridge takes 100)
#define CB_SLAVE_POLL_ROUNDS      4         // polls in a row per timer event while orders arrive

#define CB_SLAVE_EXPIRED_MSG    "Signal expired: older than its lifetime"
#define CB_SLAVE_CLOSE_ONLY_MSG "Close-only: the account takes no new positions"

//--- day of week of a time (0 = Sunday … 6 = Saturday)
int CbDayOfWeek(const datetime t) { return((int)((((long)t/86400)+4)%7)); }

//--- index of a 3-letter day name (Sun=0 … Sat=6), -1 when unknown
int CbDayIndex(const string name)
  {
   string n=name;
   StringToLower(n);
   if(n=="sun")
      return(0);
   if(n=="mon")
      return(1);
   if(n=="tue")
      return(2);
   if(n=="wed")
      return(3);
   if(n=="thu")
      return(4);
   if(n=="fri")
      return(5);
   if(n=="sat")
      return(6);
   return(-1);
  }

//--- minutes of "HH:MM", -1 when malformed
int CbMinutesOf(const string hhmm)
  {
   string parts[];
   if(StringSplit(hhmm,':',parts)!=2)
      return(-1);
   if(StringLen(parts[0])<1 || StringLen(parts[0])>2 || StringLen(parts[1])!=2)
      return(-1);
   int h=(int)StringToInteger(parts[0]);
   int m=(int)StringToInteger(parts[1]);
   if(h<0 || h>23 || m<0 || m>59)
      return(-1);
   return(h*60+m);
  }

//--- now as unix ms (UTC) from TimeGMT(): whole seconds × 1000 (an order is expired only once
//--- this is past its expiresAtMs, so the check is at most 999 ms lenient, never early)
long CbNowMs(void) { return((long)TimeGMT()*1000); }

//--- s without spaces
string CbNoSpaces(const string s)
  {
   string out=s;
   StringReplace(out," ","");
   return(out);
  }

//+------------------------------------------------------------------+
//| Is broker time t inside the trading hours `spec`?                |
//| spec: comma-separated ranges "Mon-Fri:00:00-23:59", "Sat:10:00-  |
//| 12:00", "Mon-Sun:22:00-02:00" (over midnight); days in the range |
//| may wrap (Fri-Mon); the end minute is included. "" = always.     |
//| valid is false when no range could be read (then: true).         |
//+------------------------------------------------------------------+
bool CbInTradingHours(const string spec,const datetime t,bool &valid)
  {
   valid=true;
   string s=CbNoSpaces(spec);
   if(s=="")
      return(true);
   string ranges[];
   int n=StringSplit(s,',',ranges);
   int dow=CbDayOfWeek(t);
   int minute=(int)(((long)t%86400)/60);
   int parsed=0;
   for(int i=0; i<n; i++)
     {
      string r=ranges[i];
      int colon=StringFind(r,":");
      if(colon<=0)
         continue;
      string days=StringSubstr(r,0,colon);
      string times=StringSubstr(r,colon+1);
      int d1=-1;
      int d2=-1;
      int dash=StringFind(days,"-");
      if(dash>0)
        {
         d1=CbDayIndex(StringSubstr(days,0,dash));
         d2=CbDayIndex(StringSubstr(days,dash+1));
        }
      else
        {
         d1=CbDayIndex(days);
         d2=d1;
        }
      int tdash=StringFind(times,"-");
      if(d1<0 || d2<0 || tdash<=0)
         continue;
      int m1=CbMinutesOf(StringSubstr(times,0,tdash));
      int m2=CbMinutesOf(StringSubstr(times,tdash+1));
      if(m1<0 || m2<0)
         continue;
      parsed++;
      //--- which day does this minute belong to (over-midnight ranges start the day before)
      int startDay=dow;
      bool inTime=false;
      if(m1<=m2)
         inTime=(minute>=m1 && minute<=m2);
      else
        {
         if(minute>=m1)
            inTime=true;
         else
            if(minute<=m2)
              {
               inTime=true;
               startDay=(dow+6)%7;
              }
        }
      if(!inTime)
         continue;
      int span=(d2-d1+7)%7;
      int off=(startDay-d1+7)%7;
      if(off<=span)
         return(true);
     }
   if(parsed==0)
     {
      valid=false;
      return(true);
     }
   return(false);
  }

//--- true when symbol is in the comma-separated list (case-insensitive)
bool CbInList(const string list,const string symbol)
  {
   string s=CbNoSpaces(list);
   if(s=="")
      return(false);
   string want=symbol;
   StringToUpper(want);
   string items[];
   int n=StringSplit(s,',',items);
   for(int i=0; i<n; i++)
     {
      string it=items[i];
      StringToUpper(it);
      if(it!="" && it==want)
         return(true);
     }
   return(false);
  }

//--- part `index` of a '|'-separated value ("" when absent)
string CbField(const string value,const int index)
  {
   string parts[];
   int n=StringSplit(value,'|',parts);
   if(index<0 || index>=n)
      return("");
   return(parts[index]);
  }

//+------------------------------------------------------------------+
//| Slave EA core.                                                   |
//+------------------------------------------------------------------+
class CbSlave
  {
private:
   CbBridge          m_bridge;
   CbStore           m_store;
   CbStatus          m_status;
   CbSlaveSettings   m_set;
   CbProfile         m_cfg;           // the bridge's config as last received
   string            m_login;
   int               m_offsetSec;
   bool              m_stopped;
   bool              m_redeliver;
   bool              m_reachable;
   bool              m_snapshotDue;
   bool              m_hoursWarned;
   datetime          m_lastHeartbeat;
   datetime          m_lastSnapshot;
   string            m_lastLogged;    // last failure printed (printed again only when it changes)
   datetime          m_lastPrune;

   //--- effective profile: bridge config and local inputs merged
   void              Effective(CbProfile &p)
     {
      p=m_cfg;
      bool bridgeWins=(m_cfg.present && m_cfg.overrideLocal);
      if(!bridgeWins)
        {
         if(m_set.symbolWhitelist!="")
            p.symbolWhitelist=m_set.symbolWhitelist;
         if(m_set.symbolBlacklist!="")
            p.symbolBlacklist=m_set.symbolBlacklist;
         if(m_set.tradingHours!="")
            p.tradingHours=m_set.tradingHours;
         if(m_set.equityMin>=0)
            p.equityMin=m_set.equityMin;
         if(m_set.maxSpreadPts>=0)
            p.maxSpreadPts=m_set.maxSpreadPts;
         if(m_set.maxDeviationPts>=0)
            p.maxDeviationPts=m_set.maxDeviationPts;
         if(m_set.retryMax>=0)
            p.retryMax=m_set.retryMax;
         if(m_set.retryBackoffMs>=0)
            p.retryBackoffMs=m_set.retryBackoffMs;
         if(m_set.slipToMarket>=0)
            p.slipToMarket=(m_set.slipToMarket!=0);
        }
     }
   //--- stops the EA after a fatal answer; true when stopped
   bool              CheckFatal(void)
     {
      if(!m_bridge.Fatal())
         return(false);
      m_stopped=true;
      m_status.SetError(m_bridge.LastError()+" - EA stopped");
      CbLogError(m_bridge.LastError()+" - the EA stops; fix the inputs and re-attach it");
      m_status.Show();
      return(true);
     }
   void              NoteFailure(void)
     {
      if(m_bridge.LastStatus()<0)
        {
         if(m_reachable)
            m_snapshotDue=true;
         m_reachable=false;
         m_redeliver=true;
        }
      string why=m_bridge.LastError();
      //--- printed once per distinct failure, not on every timer step
      if(why!=m_lastLogged)
        {
         m_lastLogged=why;
         CbLogError(why);
        }
      m_status.SetError(why);
     }
   void              NoteSuccess(void)
     {
      if(!m_reachable)
         m_snapshotDue=true;
      m_reachable=true;
      m_status.SetConnected();
      if(m_lastLogged!="")
        {
         CbLogInfo("bridge reachable again");
         m_lastLogged="";
        }
     }
   //--- keeps the bridge's config of a heartbeat / poll answer; logs close-only changes
   void              ReadConfig(CbJson &j)
     {
      CbProfile p;
      if(!CbParseProfile(j,"config",p))
         return;
      if(p.closeOnly!=m_cfg.closeOnly)
        {
         if(p.closeOnly)
            CbLogInfo("close-only: the bridge stopped new positions for this account (protection); modifies and closes are still executed");
         else
            CbLogInfo("close-only lifted: new positions are copied again");
        }
      m_cfg=p;
      m_status.SetCloseOnly(p.closeOnly);
     }
   void              Heartbeat(void)
     {
      m_lastHeartbeat=TimeLocal();
      CbAccountInfo a;
      if(!CbReadAccount(a))
        {
         m_status.SetError("terminal not logged in");
         return;
        }
      m_offsetSec=a.brokerUtcOffsetSec;
      string state="active";
      if(TerminalInfoInteger(TERMINAL_TRADE_ALLOWED)==0 || MQLInfoInteger(MQL_TRADE_ALLOWED)==0)
         state="error";
      string answer="";
      int status=m_bridge.Post("/v1/slave/heartbeat",CbHeartbeatBody(a,m_set.accountNumber,state,m_set.magic),answer);
      if(status>=200 && status<300)
        {
         NoteSuccess();
         m_status.HeartbeatOk();
         if(state=="error")
            m_status.SetError("AutoTrading is disabled in the terminal");
         CbJson j;
         if(j.Parse(answer))
           {
            ReadConfig(j);
            m_bridge.ApplyNetwork(j);
            long serverTime=j.Int("serverTime",0);
            long drift=(long)TimeGMT()-serverTime;
            if(serverTime>0 && (drift>30 || drift<-30))
               CbLogError("terminal clock differs from the bridge by "+IntegerToString(drift)+" s (limit 60 s)");
           }
         return;
        }
      if(CheckFatal())
         return;
      NoteFailure();
     }
   void              Snapshot(void)
     {
      CbBookEntry pos[];
      CbBookEntry ord[];
      if(!CbReadBook(pos,ord))
         return;
      string answer="";
      int status=m_bridge.Post("/v1/slave/snapshot",CbSnapshotBody(m_set.accountNumber,pos,ord,m_offsetSec),answer);
      if(status>=200 && status<300)
        {
         NoteSuccess();
         m_snapshotDue=false;
         m_lastSnapshot=TimeLocal();
         return;
        }
      if(CheckFatal())
         return;
      if(status>=400 && status<500)
        {
         m_snapshotDue=false;
         m_lastSnapshot=TimeLocal();
         CbLogError("snapshot refused: "+m_bridge.LastError());
         return;
        }
      NoteFailure();
     }
   //--- sends the symbol's spec when it is new or changed; false when the bridge refused it
   void              SendSpecIfChanged(const CbSymbolSpec &spec)
     {
      string json=CbSymbolSpecJson(spec);
      uchar bytes[];
      uchar digest[];
      CbUtf8(json,bytes);
      string hash=json;
      if(CbSha256(bytes,digest))
         hash=CbHex(digest);
      if(m_store.Get("sp."+spec.symbol,"")==hash)
         return;
      string list[];
      ArrayResize(list,1);
      list[0]=json;
      string answer="";
      int status=m_bridge.Post("/v1/slave/symbols",CbSymbolsBody(m_set.accountNumber,list),answer);
      if(status>=200 && status<300)
        {
         m_store.Set("sp."+spec.symbol,hash);
         m_store.Save();
         CbLogDebug("symbol spec of "+spec.symbol+" sent");
         return;
        }
      CbLogError("symbol spec of "+spec.symbol+" not stored: "+m_bridge.LastError());
     }
   //--- key of the masterTicket → slaveTicket map: `<masterTicket>` for leg 0, `<masterTicket>/<leg>`
   //--- for a netting master's later legs (from the copy comment), so each leg keeps its own copy
   string            CopyKey(const CbOrder &o)
     {
      string c=CbCopyCommentOf(o);
      if(StringFind(c,"cb:")==0 && StringLen(c)>3)
         return(StringSubstr(c,3));
      return(o.masterTicket);
     }
   //--- stores the report (state done) and the ticket mapping, then sends it
   void              Finish(const CbOrder &o,const CbOutcome &out,const bool counted)
     {
      string body=CbReportBody(m_set.accountNumber,o.orderId,out);
      long now=(long)TimeGMT();
      m_store.Set("rb."+o.orderId,body);
      m_store.Set("os."+o.orderId,"done|"+IntegerToString(now));
      if(o.masterTicket!="")
        {
         if((out.status=="filled" || out.status=="placed") && out.ticket!="")
            m_store.Set("mt."+CopyKey(o),out.ticket+"|"+IntegerToString(now));
         if(out.status=="closed" && out.remainingTicket!="")
            m_store.Set("mt."+CopyKey(o),out.remainingTicket+"|"+IntegerToString(now));
        }
      m_store.Save();
      if(counted)
         m_status.AddOrder();
      string msg=o.action+" "+o.symbol+" "+o.side+" "+o.volumeStr+" (master "+o.masterTicket+") -> "+out.status;
      if(out.ticket!="")
         msg=msg+" #"+out.ticket;
      if(out.errorMessage!="")
         msg=msg+": "+out.errorMessage;
      if(out.status=="rejected" || out.status=="error")
         CbLogError(msg);
      else
         CbLogInfo(msg);
      //--- the report leaves with the next poll (Poll), stored as "done" until the bridge has it
     }
   //--- true for an HTTP status (and error code) that refuses a report for good: sending
   //--- the same body again cannot help (409 in_flight / replayed can)
   bool              RefusedForGood(const int status,const string code)
     {
      bool permanent=(status==400 || status==403 || status==404 || status==409 || status==413 || status==415 || status==422);
      return(permanent && !(status==409 && (code=="in_flight" || code=="replayed")));
     }
   //--- the bridge has the report of an order (or refused it for good, `why` then says why):
   //--- it is not sent again
   void              MarkReported(const string orderId,const string why)
     {
      if(why!="")
        {
         CbLogError("report of order "+orderId+" refused ("+why+")");
         m_status.SetError("report refused: "+why);
        }
      m_store.Set("os."+orderId,"reported|"+IntegerToString((long)TimeGMT()));
     }
   //--- sends the stored report of an order on its own request (re-signed), for a bridge
   //--- that answered a poll without `reports`. False when it must be retried later.
   bool              SendReport(const string orderId)
     {
      string body=m_store.Get("rb."+orderId,"");
      if(body=="")
         return(true);
      string answer="";
      int status=m_bridge.Post("/v1/slave/execution/report",body,answer);
      if(status>=200 && status<300)
        {
         NoteSuccess();
         MarkReported(orderId,"");
         m_store.Save();
         return(true);
        }
      if(CheckFatal())
         return(false);
      if(RefusedForGood(status,m_bridge.LastCode()))
        {
         MarkReported(orderId,m_bridge.LastError());
         m_store.Save();
         return(true);
        }
      NoteFailure();
      return(false);
     }
   //--- the ids of stored reports the bridge does not have yet (state "done"), at most `max`
   int               PendingReports(string &ids[],const int max)
     {
      ArrayResize(ids,0);
      string keys[];
      int n=m_store.Keys("os.",keys);
      int count=0;
      for(int i=0; i<n && count<max; i++)
        {
         if(CbField(m_store.Get(keys[i],""),0)!="done")
            continue;
         if(m_store.Get("rb."+StringSubstr(keys[i],3),"")=="")
            continue;
         ArrayResize(ids,count+1);
         ids[count]=StringSubstr(keys[i],3);
         count++;
        }
      return(count);
     }
   //--- reads the poll answer's `reports` (one per carried report, in order): each one the
   //--- bridge has, or refused for good, is marked reported; the others go again on the next
   //--- poll. A bridge that answers without `reports` gets them on their own requests.
   void              ReadReportAnswers(CbJson &j,const string &ids[],const int count)
     {
      if(count==0)
         return;
      if(j.Type("reports")!=CB_JSON_ARRAY)
        {
         for(int i=0; i<count && !m_stopped; i++)
            if(!SendReport(ids[i]))
               return;
         return;
        }
      int n=j.Count("reports");
      for(int i=0; i<count && i<n; i++)
        {
         string p="reports."+IntegerToString(i)+".";
         if(j.Bool(p+"ok",false))
            MarkReported(ids[i],"");
         else
           {
            int status=(int)j.Int(p+"httpStatus",0);
            string code=j.Str(p+"code","");
            if(RefusedForGood(status,code))
               MarkReported(ids[i],IntegerToString(status)+" "+code+": "+j.Str(p+"error",""));
           }
        }
      m_store.Save();
     }
   //--- forgets reported orders older than a day and ticket mappings older than 30 days
   void              Prune(void)
     {
      long now=(long)TimeGMT();
      string keys[];
      int n=m_store.Keys("os.",keys);
      for(int i=0; i<n; i++)
        {
         string state=m_store.Get(keys[i],"");
         long at=StringToInteger(CbField(state,1));
         if(CbField(state,0)=="reported" && now-at>CB_SLAVE_ORDER_KEEP_SEC)
           {
            string id=StringSubstr(keys[i],3);
            m_store.Del(keys[i]);
            m_store.Del("rb."+id);
           }
        }
      n=m_store.Keys("mt.",keys);
      for(int i=0; i<n; i++)
        {
         long at=StringToInteger(CbField(m_store.Get(keys[i],""),1));
         if(now-at>CB_SLAVE_MAP_KEEP_SEC)
            m_store.Del(keys[i]);
        }
      m_store.SaveIfDirty();
     }
   //--- the copy of this order in the book (magic + its copy comment cb:<masterTicket>[/leg]); "" = none
   bool              FindCopy(const CbOrder &o,const bool pending,CbBookEntry &found)
     {
      CbBookEntry pos[];
      CbBookEntry ord[];
      if(!CbReadBook(pos,ord))
         return(false);
      string comment=CbCopyCommentOf(o);
      if(pending)
        {
         for(int i=0; i<ArraySize(ord); i++)
            if(ord[i].magic==m_set.magic && ord[i].comment==comment)
              {
               found=ord[i];
               return(true);
              }
        }
      for(int i=0; i<ArraySize(pos); i++)
         if(pos[i].magic==m_set.magic && pos[i].comment==comment)
           {
            found=pos[i];
            return(true);
           }
      return(false);
     }
   //--- open volume of a ticket in the book (lots), -1 when not open, -2 when unreadable
   double            OpenVolume(const string ticket)
     {
      CbBookEntry pos[];
      CbBookEntry ord[];
      if(!CbReadBook(pos,ord))
         return(-2);
      for(int i=0; i<ArraySize(pos); i++)
         if(pos[i].ticket==ticket)
            return(pos[i].volume);
      return(-1);
     }
   //--- after a crash mid-execution: did the order already take effect? Fills out when so.
   bool              Recover(const CbOrder &o,const string state,CbOutcome &out)
     {
      if(o.action=="OPEN" || o.action=="PENDING_OPEN")
        {
         if(o.masterTicket=="")
            return(false);
         CbBookEntry e;
         if(!FindCopy(o,o.action=="PENDING_OPEN",e))
            return(false);
         bool isPending=(e.orderType!="MARKET");
         out.status="filled";
         if(isPending)
            out.status="placed";
         out.ticket=e.ticket;
         out.fillPrice=e.price;
         out.volume=e.volume;
         out.digits=e.digits;
         out.fillTime=(double)CbToUtc(e.time,m_offsetSec);
         CbSymbolSpec spec;
         if(CbReadSymbolSpec(e.symbol,spec))
            out.point=spec.point;
         CbLogInfo("order "+o.orderId+" was already executed before the restart: "+out.status+" #"+e.ticket);
         return(true);
        }
      if(o.action=="CLOSE")
        {
         string ticket=CbField(state,2);
         double before=StringToDouble(CbField(state,3));
         if(ticket=="" || before<=0)
            return(false);
         double now=OpenVolume(ticket);
         if(now==-2)
            return(false);
         if(now>=0 && now>=before-1e-8)
            return(false);
         out.status="closed";
         out.ticket=ticket;
         out.volume=before;
         if(now>0)
            out.volume=NormalizeDouble(before-now,8);
         out.fillTime=(double)TimeGMT();
         CbLogInfo("order "+o.orderId+" was already executed before the restart: closed #"+ticket);
         return(true);
        }
      return(false);
     }
   //--- profile checks of an OPEN / PENDING_OPEN; false with a rejected outcome
   bool              Allowed(const CbOrder &o,const CbProfile &p,const CbSymbolSpec &spec,CbOutcome &out)
     {
      if(p.symbolWhitelist!="" && !CbInList(p.symbolWhitelist,o.symbol))
        {
         CbOutcomeFail(out,"rejected",0,"Symbol "+o.symbol+" is not in the whitelist");
         return(false);
        }
      if(CbInList(p.symbolBlacklist,o.symbol))
        {
         CbOutcomeFail(out,"rejected",0,"Symbol "+o.symbol+" is blacklisted");
         return(false);
        }
      bool valid=true;
      //--- broker time = UTC + the broker's offset (TimeTradeServer is MQL5 only)
      datetime brokerNow=(datetime)((long)TimeGMT()+m_offsetSec);
      if(!CbInTradingHours(p.tradingHours,brokerNow,valid))
        {
         CbOutcomeFail(out,"rejected",0,"Outside trading hours ("+p.tradingHours+")");
         return(false);
        }
      if(!valid && !m_hoursWarned)
        {
         m_hoursWarned=true;
         CbLogError("trading hours '"+p.tradingHours+"' not understood (use e.g. Mon-Fri:00:00-23:59); not enforced");
        }
      if(p.equityMin>0)
        {
         CbAccountInfo a;
         if(CbReadAccount(a) && a.equity<p.equityMin)
           {
            CbOutcomeFail(out,"rejected",0,"Equity "+DoubleToString(a.equity,2)+" below minimum "+DoubleToString(p.equityMin,2));
            return(false);
           }
        }
      if(o.action=="OPEN")
        {
         int maxSpread=p.maxSpreadPts;
         if((m_cfg.overrideLocal || m_set.maxSpreadPts<0) && o.maxSpreadPts>=0)
            maxSpread=o.maxSpreadPts;
         if(maxSpread>=0 && spec.point>0)
           {
            double bid=SymbolInfoDouble(o.symbol,SYMBOL_BID);
            double ask=SymbolInfoDouble(o.symbol,SYMBOL_ASK);
            if(bid>0 && ask>0)
              {
               int spread=(int)MathRound((ask-bid)/spec.point);
               if(spread>maxSpread)
                 {
                  CbOutcomeFail(out,"rejected",0,"Spread "+IntegerToString(spread)+" pts > max "+IntegerToString(maxSpread)+" pts");
                  return(false);
                 }
              }
           }
        }
      return(true);
     }
   //--- one order of a poll answer
   void              Handle(CbOrder &o)
     {
      if(o.orderId=="")
        {
         CbLogError("order without orderId ignored");
         return;
        }
      string state=m_store.Get("os."+o.orderId,"");
      string kind=CbField(state,0);
      if(kind=="done" || kind=="reported")
        {
         //--- handed out again: the bridge has not applied the report yet; it leaves again
         //--- with the next poll
         CbLogDebug("order "+o.orderId+" already executed, report sent again");
         if(kind=="reported" && m_store.Get("rb."+o.orderId,"")!="")
           {
            m_store.Set("os."+o.orderId,"done|"+IntegerToString((long)TimeGMT()));
            m_store.Save();
           }
         return;
        }
      CbOutcome out;
      if(kind=="executing" && Recover(o,state,out))
        {
         Finish(o,out,false);
         return;
        }
      string action=o.action;
      bool known=(action=="OPEN" || action=="PENDING_OPEN" || action=="MODIFY" || action=="PENDING_MODIFY" ||
                  action=="CLOSE" || action=="PENDING_CANCEL" || action=="CLOSE_ALL");
      if(!known)
        {
         CbOutcomeFail(out,"rejected",0,"Unknown action '"+action+"'");
         out.fillTime=(double)TimeGMT();
         Finish(o,out,false);
         return;
        }
      //--- expiry and close-only: refused before anything touches the broker
      if(action=="OPEN" || action=="PENDING_OPEN")
        {
         bool expired=(o.expiresAtMs>0 && CbNowMs()>o.expiresAtMs);
         //--- an expired order may be a redelivery of one executed before a crash whose state
         //--- was lost: report the copy in the book when there is one (as Recover does)
         if(expired && kind!="executing" && Recover(o,state,out))
           {
            Finish(o,out,false);
            return;
           }
         string refused="";
         if(expired)
            refused=CB_SLAVE_EXPIRED_MSG;
         else
            if(m_cfg.closeOnly)
               refused=CB_SLAVE_CLOSE_ONLY_MSG;
         if(refused!="")
           {
            CbOutcomeFail(out,"rejected",0,refused);
            out.fillTime=(double)TimeGMT();
            Finish(o,out,false);
            return;
           }
        }
      CbProfile p;
      Effective(p);
      //--- slippage: the order's value unless a local input is set (and the bridge does not
      //--- override it); the platform reads the order's value first, so it carries the result
      if(o.maxDeviationPts>=0 && (m_cfg.overrideLocal || m_set.maxDeviationPts<0))
         p.maxDeviationPts=o.maxDeviationPts;
      o.maxDeviationPts=p.maxDeviationPts;
      if(action=="OPEN" || action=="PENDING_OPEN")
        {
         string why="";
         if(o.symbol=="")
            why="Order has no symbol";
         else
            if(o.side!="BUY" && o.side!="SELL")
               why="Order has no valid side";
            else
               if(o.volume<=0)
                  why="Order has no valid volume ("+o.volumeStr+")";
               else
                  if(action=="PENDING_OPEN" && (o.price<=0 || (o.orderType!="LIMIT" && o.orderType!="STOP" && o.orderType!="STOP_LIMIT")))
                     why="Pending order has no valid type or price";
         if(why!="")
           {
            CbOutcomeFail(out,"rejected",0,why);
            out.fillTime=(double)TimeGMT();
            Finish(o,out,false);
            return;
           }
         CbSymbolSpec spec;
         if(!CbReadSymbolSpec(o.symbol,spec))
           {
            CbOutcomeFail(out,"rejected",4301,"Unknown symbol "+o.symbol);
            out.fillTime=(double)TimeGMT();
            Finish(o,out,false);
            return;
           }
         SendSpecIfChanged(spec);
         if(!Allowed(o,p,spec,out))
           {
            out.fillTime=(double)TimeGMT();
            out.point=spec.point;
            Finish(o,out,false);
            return;
           }
        }
      //--- a null slaveTicket: the ticket this slave got for the master ticket
      if(o.slaveTicket=="" && o.masterTicket!="" && action!="OPEN" && action!="PENDING_OPEN" && action!="CLOSE_ALL")
         o.slaveTicket=CbField(m_store.Get("mt."+CopyKey(o),""),0);
      //--- mark executing (durably) before touching the broker
      string mark="executing|"+IntegerToString((long)TimeGMT());
      if(action=="CLOSE" && o.slaveTicket!="")
        {
         double vol=OpenVolume(o.slaveTicket);
         if(vol>0)
            mark=mark+"|"+o.slaveTicket+"|"+CbDecimal(vol,8);
        }
      m_store.Set("os."+o.orderId,mark);
      m_store.Save();
      CbExecute(o,p,m_set.magic,out);
      //--- latency hop "slave execution" ends here: the fill, or a pending order's placement
      out.executedAtMs=CbClockMs();
      if(out.status=="")
         CbOutcomeFail(out,"error",0,"No outcome from the platform");
      if(out.fillTime<=0)
         out.fillTime=(double)TimeGMT();
      Finish(o,out,true);
     }
   //--- one long-poll carrying the reports the bridge does not have yet (at most
   //--- CB_SLAVE_POLL_REPORTS; with more waiting it does not wait), then the orders it brought,
   //--- in order. True when it brought orders or left reports behind: poll again at once.
   bool              Poll(void)
     {
      int waitMs=m_set.pollWaitMs;
      if(waitMs<0)
         waitMs=0;
      if(waitMs>25000)
         waitMs=25000;
      string ids[];
      int count=PendingReports(ids,CB_SLAVE_POLL_REPORTS+1);
      //--- more reports than one poll carries: this one does not wait, the rest follow at once
      bool more=(count>CB_SLAVE_POLL_REPORTS);
      if(more)
        {
         count=CB_SLAVE_POLL_REPORTS;
         waitMs=0;
        }
      string bodies[];
      ArrayResize(bodies,count);
      for(int i=0; i<count; i++)
         bodies[i]=m_store.Get("rb."+ids[i],"");
      string answer="";
      bool redeliver=m_redeliver;
      int status=m_bridge.PostEx("/v1/slave/orders/poll",CbPollBodyWithReports(m_set.accountNumber,waitMs,CB_SLAVE_POLL_LIMIT,redeliver,bodies,count),
                                 answer,waitMs+5000,1);
      if(status<200 || status>=300)
        {
         if(CheckFatal())
            return(false);
         NoteFailure();
         return(false);
        }
      NoteSuccess();
      if(redeliver)
         m_redeliver=false;
      CbJson j;
      if(!j.Parse(answer))
        {
         CbLogError("poll answer is not JSON: "+j.Error());
         return(false);
        }
      ReadConfig(j);
      ReadReportAnswers(j,ids,count);
      CbOrder orders[];
      if(!CbParseOrders(j,orders))
        {
         CbLogError("poll answer has no orders list");
         return(false);
        }
      for(int i=0; i<ArraySize(orders) && !m_stopped && !IsStopped(); i++)
         Handle(orders[i]);
      return(ArraySize(orders)>0 || more);
     }

public:
                     CbSlave(void)
     {
      m_login="";
      m_offsetSec=0;
      m_stopped=false;
      m_redeliver=true;
      m_reachable=true;
      m_snapshotDue=true;
      m_hoursWarned=false;
      m_lastHeartbeat=0;
      m_lastSnapshot=0;
      m_lastPrune=0;
      m_lastLogged="";
     }
   //--- checks the settings, reads the account, loads the state file
   //--- (CopyBridge-slave-<login>.dat in the terminal's Files folder). False with the reason
   //--- printed and on the chart (bad URL / key / secret, terminal not logged in).
   bool              Init(const CbSlaveSettings &s)
     {
      m_set=s;
      m_stopped=false;
      m_redeliver=true;
      m_status.Init("Slave",CbPlatformName());
      if(m_set.heartbeatSec<1)
         m_set.heartbeatSec=5;
      if(m_set.snapshotSec<30)
         m_set.snapshotSec=300;
      if(!m_bridge.Init(s.url,s.apiKey,s.secret,s.timeoutMs,s.verbosity))
        {
         CbLogError(m_bridge.LastError());
         m_status.SetError(m_bridge.LastError());
         m_status.Show();
         return(false);
        }
      if(m_set.magic<=0)
        {
         CbLogError("Magic number (InpMagic) must be a positive number");
         m_status.SetError("Magic number (InpMagic) must be a positive number");
         m_status.Show();
         return(false);
        }
      CbAccountInfo a;
      if(!CbReadAccount(a) || a.login=="" || a.login=="0")
        {
         CbLogError("the terminal is not logged in to an account");
         m_status.SetError("terminal not logged in");
         m_status.Show();
         return(false);
        }
      m_login=a.login;
      m_offsetSec=a.brokerUtcOffsetSec;
      string file="CopyBridge-slave-"+m_login+".dat";
      if(!m_store.Load(file))
         CbLogError("state file "+file+" was unreadable; executed orders of before are forgotten");
      m_snapshotDue=true;
      m_lastHeartbeat=0;
      m_status.Show();
      CbLogInfo("slave EA started for account "+m_login+" on "+a.server+" ("+CbPlatformName()+"), bridge "+m_bridge.Origin()+
                ", magic "+IntegerToString(m_set.magic));
      return(true);
     }
   //--- one step: heartbeat and snapshot when due, then long-polls (each blocks up to
   //--- pollWaitMs + 5 s) carrying the pending reports, and the orders they brought; status line
   void              OnTimer(void)
     {
      if(m_stopped)
        {
         m_status.Show();
         return;
        }
      datetime now=TimeLocal();
      if(m_lastHeartbeat==0 || now-m_lastHeartbeat>=m_set.heartbeatSec)
         Heartbeat();
      if(!m_stopped && (m_snapshotDue || m_lastSnapshot==0 || now-m_lastSnapshot>=m_set.snapshotSec))
         Snapshot();
      if(!m_stopped && (m_lastPrune==0 || now-m_lastPrune>=3600))
        {
         m_lastPrune=now;
         Prune();
        }
      m_status.Show();
      //--- a poll that brought orders is followed at once by one carrying their reports (it
      //--- waits for the next orders); a few rounds, then the heartbeat gets its turn again
      for(int round=0; round<CB_SLAVE_POLL_ROUNDS && !m_stopped && !IsStopped(); round++)
        {
         if(!Poll())
            break;
         m_status.Show();
        }
      m_status.Show();
     }
   //--- saves the state and clears the chart line
   void              Deinit(const int reason)
     {
      m_store.SaveIfDirty();
      m_status.Clear();
      CbLogInfo("slave EA stopped (reason "+IntegerToString(reason)+")");
     }
   //--- true after a fatal error (bad key): the EA does nothing more
   bool              Stopped(void) const { return(m_stopped); }
   //--- the chart status line
   string            StatusText(void) { return(m_status.Text()); }
  };

#endif // COPYBRIDGE_SLAVECORE_MQH
