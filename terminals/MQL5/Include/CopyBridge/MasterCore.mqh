//+------------------------------------------------------------------+
//| CopyBridge/MasterCore.mqh                                [shared] |
//| The master EA's logic (CbMaster): heartbeat, snapshots, and the   |
//| periodic diff of the account's book against the last reported     |
//| book (persisted), turned into signal events:                      |
//|   new position → OPEN (nothing when it is a reported pending      |
//|   order that triggered), volume decrease → CLOSE partial (closed  |
//|   lots, close price), position gone → CLOSE full (volume 0),      |
//|   MT5 netting: volume increase → OPEN on the same ticket with the |
//|   lots added, side change (in-out reversal) → CLOSE full of the   |
//|   old side then OPEN of the new side with the new volume,         |
//|   SL/TP change → MODIFY, new pending → PENDING_OPEN, pending      |
//|   price/SL/TP change → PENDING_MODIFY, pending gone and not       |
//|   triggered → PENDING_CANCEL.                                     |
//| MT4 partial closes leave the remainder under a new ticket with    |
//| comment `from #<old>`: the new ticket is aliased to the ORIGINAL  |
//| master ticket, which every later event keeps using.               |
//| Every event body is written to the outbox in the Store (together  |
//| with the new reported book) BEFORE it is sent, removed on 2xx or  |
//| on a 4xx no retry can fix, and otherwise resent byte for byte, in |
//| order, on the next timer. Idempotency keys are                    |
//| <login>-<original ticket>-<kind>-<per-ticket sequence>, so a      |
//| resend after a restart is a replay, never a new signal.           |
//|                                                                   |
//| EA usage (include Platform5.mqh / Platform4.mqh BEFORE this file):|
//|   CbMaster g_master;                                              |
//|   OnInit:   CbMasterSettings s; s.url=InpServerUrl; …             |
//|             if(!g_master.Init(s)) return(INIT_PARAMETERS_INCORRECT);|
//|             EventSetTimer(1);                                     |
//|   OnTimer:  g_master.OnTimer();                                   |
//|   OnTradeTransaction / OnTick (MT4): g_master.OnTradeEvent();     |
//|   OnDeinit: EventKillTimer(); g_master.Deinit(reason);            |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_MASTERCORE_MQH
#define COPYBRIDGE_MASTERCORE_MQH

#include "Types.mqh"
#include "Json.mqh"
#include "Http.mqh"
#include "Protocol.mqh"
#include "Store.mqh"
#include "Status.mqh"

//--- store keys: bp.<key> reported position, bo.<ticket> reported pending order,
//--- al.<ticket> MT4 alias → original ticket, sq.<key> event sequence, ob.<n> outbox entry
//--- ("<path> <body>"), obn last outbox number, init = baseline taken

//--- book entry → compact JSON for the store
string CbEntryToText(const CbBookEntry &e)
  {
   CbJsonWriter w;
   w.BeginObject();
   w.Str("t",e.ticket);
   w.Str("s",e.symbol);
   w.Str("d",e.side);
   w.Str("o",e.orderType);
   w.Dec("v",e.volume,8);
   w.Dec("p",e.price,10);
   w.Dec("l",e.stopLimitPrice,10);
   w.Dec("sl",e.sl,10);
   w.Dec("tp",e.tp,10);
   w.Int("m",e.magic);
   w.Str("c",e.comment);
   w.Int("tm",(long)e.time);
   w.Int("g",e.digits);
   w.EndObject();
   return(w.Text());
  }

//--- compact JSON (CbEntryToText) → book entry; false when unreadable
bool CbEntryFromText(const string text,CbBookEntry &e)
  {
   CbJson j;
   if(!j.Parse(text))
      return(false);
   e.ticket=j.Str("t","");
   e.symbol=j.Str("s","");
   e.side=j.Str("d","");
   e.orderType=j.Str("o","");
   e.volume=j.Num("v",0.0);
   e.price=j.Num("p",0.0);
   e.stopLimitPrice=j.Num("l",0.0);
   e.sl=j.Num("sl",0.0);
   e.tp=j.Num("tp",0.0);
   e.magic=j.Int("m",0);
   e.comment=j.Str("c","");
   e.time=(datetime)j.Int("tm",0);
   e.digits=(int)j.Int("g",5);
   return(e.ticket!="");
  }

//--- true when two prices differ at the symbol's precision
bool CbPriceDiffers(const double a,const double b,const int digits)
  {
   int d=digits;
   if(d<0 || d>10)
      d=8;
   return(DoubleToString(a,d)!=DoubleToString(b,d));
  }

//+------------------------------------------------------------------+
//| Master EA core.                                                  |
//+------------------------------------------------------------------+
class CbMaster
  {
private:
   CbBridge          m_bridge;
   CbStore           m_store;
   CbStatus          m_status;
   CbMasterSettings  m_set;
   string            m_login;
   string            m_server;
   int               m_offsetSec;     // broker time − UTC
   bool              m_stopped;
   bool              m_diffNow;
   bool              m_reachable;     // the last request reached the bridge
   bool              m_snapshotDue;
   datetime          m_lastHeartbeat; // TimeLocal of the last heartbeat attempt
   datetime          m_lastSnapshot;
   string            m_lastLogged;    // last failure printed (printed again only when it changes)
   uint              m_lastDiffTick;
   //--- the last reported book (mirrors bp.* / bo.* of the store)
   CbBookEntry       m_pos[];
   string            m_posKey[];      // original master ticket of each position
   CbBookEntry       m_ord[];

   int               FindPosKey(const string key) const
     {
      for(int i=0; i<ArraySize(m_posKey); i++)
         if(m_posKey[i]==key)
            return(i);
      return(-1);
     }
   int               FindPosTicket(const string ticket) const
     {
      for(int i=0; i<ArraySize(m_pos); i++)
         if(m_pos[i].ticket==ticket)
            return(i);
      return(-1);
     }
   int               FindOrd(const string ticket) const
     {
      for(int i=0; i<ArraySize(m_ord); i++)
         if(m_ord[i].ticket==ticket)
            return(i);
      return(-1);
     }
   void              SetPos(const string key,const CbBookEntry &e)
     {
      int i=FindPosKey(key);
      if(i<0)
        {
         i=ArraySize(m_pos);
         ArrayResize(m_pos,i+1);
         ArrayResize(m_posKey,i+1);
         m_posKey[i]=key;
        }
      m_pos[i]=e;
      m_store.Set("bp."+key,CbEntryToText(e));
     }
   void              DelPos(const string key)
     {
      int i=FindPosKey(key);
      if(i<0)
         return;
      int n=ArraySize(m_pos);
      for(int k=i; k<n-1; k++)
        {
         m_pos[k]=m_pos[k+1];
         m_posKey[k]=m_posKey[k+1];
        }
      ArrayResize(m_pos,n-1);
      ArrayResize(m_posKey,n-1);
      m_store.Del("bp."+key);
      //--- aliases pointing at it and its sequence are no longer needed
      string keys[];
      int na=m_store.Keys("al.",keys);
      for(int a=0; a<na; a++)
         if(m_store.Get(keys[a],"")==key)
            m_store.Del(keys[a]);
      m_store.Del("sq."+key);
     }
   void              SetOrd(const CbBookEntry &e)
     {
      int i=FindOrd(e.ticket);
      if(i<0)
        {
         i=ArraySize(m_ord);
         ArrayResize(m_ord,i+1);
        }
      m_ord[i]=e;
      m_store.Set("bo."+e.ticket,CbEntryToText(e));
     }
   void              DelOrd(const string ticket,const bool keepSeq)
     {
      int i=FindOrd(ticket);
      if(i<0)
         return;
      int n=ArraySize(m_ord);
      for(int k=i; k<n-1; k++)
         m_ord[k]=m_ord[k+1];
      ArrayResize(m_ord,n-1);
      m_store.Del("bo."+ticket);
      if(!keepSeq)
         m_store.Del("sq."+ticket);
     }
   void              LoadBook(void)
     {
      ArrayResize(m_pos,0);
      ArrayResize(m_posKey,0);
      ArrayResize(m_ord,0);
      string keys[];
      int n=m_store.Keys("bp.",keys);
      for(int i=0; i<n; i++)
        {
         CbBookEntry e;
         if(!CbEntryFromText(m_store.Get(keys[i],""),e))
            continue;
         int k=ArraySize(m_pos);
         ArrayResize(m_pos,k+1);
         ArrayResize(m_posKey,k+1);
         m_pos[k]=e;
         m_posKey[k]=StringSubstr(keys[i],3);
        }
      n=m_store.Keys("bo.",keys);
      for(int i=0; i<n; i++)
        {
         CbBookEntry e;
         if(!CbEntryFromText(m_store.Get(keys[i],""),e))
            continue;
         int k=ArraySize(m_ord);
         ArrayResize(m_ord,k+1);
         m_ord[k]=e;
        }
     }
   bool              Wanted(const CbBookEntry &e) const
     {
      return(m_set.magicFilter<0 || e.magic==m_set.magicFilter);
     }
   //--- original master ticket of a current position (MT4 aliases, `from #<old>` comments)
   string            KeyOf(const CbBookEntry &e)
     {
      string a=m_store.Get("al."+e.ticket,"");
      if(a!="")
         return(a);
      if(StringFind(e.comment,"from #")==0)
        {
         string rest=StringSubstr(e.comment,6);
         int n=0;
         while(n<StringLen(rest) && StringGetCharacter(rest,n)>='0' && StringGetCharacter(rest,n)<='9')
            n++;
         string old=StringSubstr(rest,0,n);
         if(old!="")
           {
            string orig=m_store.Get("al."+old,"");
            if(orig=="")
              {
               int i=FindPosTicket(old);
               if(i>=0)
                  orig=m_posKey[i];
               else
                  if(FindPosKey(old)>=0)
                     orig=old;
              }
            if(orig!="")
              {
               m_store.Set("al."+e.ticket,orig);
               CbLogInfo("ticket "+e.ticket+" continues master ticket "+orig+" (partial close)");
               return(orig);
              }
           }
        }
      return(e.ticket);
     }
   //--- queues one event in the outbox (saved by the caller together with the book)
   void              Emit(const string type,const string kind,const string path,const string key,const CbBookEntry &e,
                          const double volume,const double price,const long ts)
     {
      long seq=m_store.GetInt("sq."+key,0)+1;
      m_store.SetInt("sq."+key,seq);
      string idem=m_login+"-"+key+"-"+kind+"-"+IntegerToString(seq);
      CbBookEntry ev=e;
      ev.ticket=key;
      long now=(long)TimeGMT();
      long t=ts;
      if(t<946684800 || t>now+60)
         t=now;
      string body=CbEventBody(idem,type,t,m_login,m_set.alias,m_server,ev,volume,price,idem);
      long n=m_store.GetInt("obn",0)+1;
      m_store.SetInt("obn",n);
      m_store.Set("ob."+IntegerToString(n),path+" "+body);
      m_status.AddOrder();
      CbLogInfo(type+" "+ev.symbol+" "+ev.side+" "+CbDecimal(volume,-1)+" lots, ticket "+key+" queued ("+idem+")");
     }
   //--- close price/time of a ticket that left the book (market price when history has none)
   void              CloseFacts(const CbBookEntry &e,double &price,long &ts)
     {
      double p=0.0;
      datetime t=0;
      double profit=0.0;
      string reason="";
      price=0.0;
      ts=(long)TimeGMT();
      if(CbClosedInfo(e.ticket,p,t,profit,reason) && p>0)
        {
         price=p;
         if(t>0)
            ts=CbToUtc(t,m_offsetSec);
         return;
        }
      if(e.side=="BUY")
         price=SymbolInfoDouble(e.symbol,SYMBOL_BID);
      else
         price=SymbolInfoDouble(e.symbol,SYMBOL_ASK);
      if(price<0)
         price=0.0;
     }
   //--- price of the lots a netting deal added: (new avg × new volume − old avg × old volume) / added,
   //--- rounded to the symbol's digits; the market price when that is not a usable number
   double            AddedPrice(const CbBookEntry &was,const CbBookEntry &now,const double added)
     {
      int d=now.digits;
      if(d<0 || d>10)
         d=5;
      double p=0.0;
      if(added>1e-8)
         p=NormalizeDouble((now.price*now.volume-was.price*was.volume)/added,d);
      if(p>0.0 && MathIsValidNumber(p))
         return(p);
      p=SymbolInfoDouble(now.symbol,(now.side=="BUY") ? SYMBOL_ASK : SYMBOL_BID);
      return(p>0.0 ? p : now.price);
     }
   //--- compares the account's book with the reported book; queues events; saves
   void              Diff(void)
     {
      CbBookEntry cp[];
      CbBookEntry co[];
      if(!CbReadBook(cp,co))
        {
         CbLogDebug("book not readable now, diff skipped");
         return;
        }
      //--- keep what the magic filter wants
      CbBookEntry pos[];
      CbBookEntry ord[];
      int np=0;
      int no=0;
      for(int i=0; i<ArraySize(cp); i++)
         if(Wanted(cp[i]))
           {
            ArrayResize(pos,np+1);
            pos[np]=cp[i];
            np++;
           }
      for(int i=0; i<ArraySize(co); i++)
         if(Wanted(co[i]))
           {
            ArrayResize(ord,no+1);
            ord[no]=co[i];
            no++;
           }
      string key[];
      ArrayResize(key,np);
      for(int i=0; i<np; i++)
         key[i]=KeyOf(pos[i]);
      //--- 1. reported pending orders: modified, triggered, cancelled
      for(int r=ArraySize(m_ord)-1; r>=0; r--)
        {
         CbBookEntry was=m_ord[r];
         int j=-1;
         for(int i=0; i<no; i++)
            if(ord[i].ticket==was.ticket)
              {
               j=i;
               break;
              }
         if(j>=0)
           {
            CbBookEntry now=ord[j];
            if(CbPriceDiffers(now.price,was.price,now.digits) || CbPriceDiffers(now.sl,was.sl,now.digits) ||
               CbPriceDiffers(now.tp,was.tp,now.digits) || CbPriceDiffers(now.stopLimitPrice,was.stopLimitPrice,now.digits))
              {
               Emit("PENDING_MODIFY","pmodify","/v1/master/signal/pending/modify",now.ticket,now,now.volume,now.price,(long)TimeGMT());
               SetOrd(now);
              }
            continue;
           }
         //--- gone: triggered into a position?
         int t=-1;
         for(int i=0; i<np; i++)
            if(pos[i].ticket==was.ticket || key[i]==was.ticket)
              {
               t=i;
               break;
              }
         if(t<0)
            for(int i=0; i<np; i++)
              {
               if(FindPosKey(key[i])>=0 || pos[i].symbol!=was.symbol || pos[i].side!=was.side)
                  continue;
               if(was.orderType=="STOP_LIMIT" || !CbPriceDiffers(pos[i].price,was.price,was.digits))
                 {
                  t=i;
                  break;
                 }
              }
         if(t>=0)
           {
            if(pos[t].ticket!=was.ticket)
               m_store.Set("al."+pos[t].ticket,was.ticket);
            key[t]=was.ticket;
            CbLogInfo("pending order "+was.ticket+" triggered on the master (nothing to send)");
            SetPos(was.ticket,pos[t]);
            DelOrd(was.ticket,true);
            continue;
           }
         double p=0.0;
         datetime tm=0;
         double profit=0.0;
         string reason="";
         bool known=CbClosedInfo(was.ticket,p,tm,profit,reason);
         long ts=(long)TimeGMT();
         if(known && tm>0)
            ts=CbToUtc(tm,m_offsetSec);
         //--- triggered and already closed again before this diff: close the copies. MT5 says
         //--- "filled" (the order's history state); MT4 keeps the triggered order under the same
         //--- ticket, so its history gives the later close's reason (sl, tp, manual...).
         if(known && reason!="cancelled")
           {
            double cprice=0.0;
            long cts=0;
            CbBookEntry asPos=was;
            asPos.orderType="MARKET";
            CloseFacts(asPos,cprice,cts);
            Emit("CLOSE","close","/v1/master/signal/close",was.ticket,asPos,0.0,cprice,cts);
            DelOrd(was.ticket,false);
            continue;
           }
         Emit("PENDING_CANCEL","pcancel","/v1/master/signal/pending/cancel",was.ticket,was,was.volume,was.price,ts);
         DelOrd(was.ticket,false);
        }
      //--- 2. reported positions: closed, partially closed, modified
      for(int r=ArraySize(m_pos)-1; r>=0; r--)
        {
         CbBookEntry was=m_pos[r];
         string k=m_posKey[r];
         int j=-1;
         for(int i=0; i<np; i++)
            if(key[i]==k)
              {
               j=i;
               break;
              }
         if(j<0)
           {
            double price=0.0;
            long ts=0;
            CloseFacts(was,price,ts);
            Emit("CLOSE","close","/v1/master/signal/close",k,was,0.0,price,ts);
            DelPos(k);
            continue;
           }
         CbBookEntry now=pos[j];
         bool changed=false;
         //--- MT5 netting only (a hedging or MT4 position never grows nor changes side): an in-out
         //--- reversal is a full CLOSE of the old side, then an OPEN of the new side with the new
         //--- volume, same ticket, in this order (docs/bridge-protocol.md §10.4)
         if(now.side!=was.side)
           {
            long ts=(long)TimeGMT();
            Emit("CLOSE","close","/v1/master/signal/close",k,was,0.0,now.price,ts);
            Emit("OPEN","open","/v1/master/signal/open",k,now,now.volume,now.price,ts);
            SetPos(k,now);
            CbLogInfo("netting position "+k+" reversed to "+now.side+" "+CbDecimal(now.volume,-1)+" lots");
            continue;
           }
         //--- netting addition: an OPEN on the same ticket carrying the lots added (a new leg on
         //--- the bridge) at the added deal's price (from the volume-weighted open prices)
         if(now.volume>was.volume+1e-8)
           {
            double added=NormalizeDouble(now.volume-was.volume,8);
            double price=AddedPrice(was,now,added);
            Emit("OPEN","open","/v1/master/signal/open",k,now,added,price,(long)TimeGMT());
            changed=true;
           }
         if(now.volume<was.volume-1e-8)
           {
            double price=0.0;
            long ts=0;
            CloseFacts(was,price,ts);
            double closed=NormalizeDouble(was.volume-now.volume,8);
            Emit("CLOSE","close","/v1/master/signal/close",k,now,closed,price,ts);
            changed=true;
           }
         if(CbPriceDiffers(now.sl,was.sl,now.digits) || CbPriceDiffers(now.tp,was.tp,now.digits))
           {
            Emit("MODIFY","modify","/v1/master/signal/modify",k,now,now.volume,now.price,(long)TimeGMT());
            changed=true;
           }
         if(changed || now.ticket!=was.ticket || now.volume>was.volume+1e-8)
            SetPos(k,now);
        }
      //--- 3. new pending orders, oldest first
      for(int pass=0; pass<no; pass++)
        {
         int best=-1;
         for(int i=0; i<no; i++)
           {
            if(FindOrd(ord[i].ticket)>=0)
               continue;
            if(best<0 || ord[i].time<ord[best].time)
               best=i;
           }
         if(best<0)
            break;
         CbBookEntry e=ord[best];
         Emit("PENDING_OPEN","popen","/v1/master/signal/pending/open",e.ticket,e,e.volume,e.price,CbToUtc(e.time,m_offsetSec));
         SetOrd(e);
        }
      //--- 4. new positions, oldest first
      for(int pass=0; pass<np; pass++)
        {
         int best=-1;
         for(int i=0; i<np; i++)
           {
            if(FindPosKey(key[i])>=0)
               continue;
            if(best<0 || pos[i].time<pos[best].time)
               best=i;
           }
         if(best<0)
            break;
         CbBookEntry e=pos[best];
         Emit("OPEN","open","/v1/master/signal/open",key[best],e,e.volume,e.price,CbToUtc(e.time,m_offsetSec));
         SetPos(key[best],e);
        }
      m_store.SaveIfDirty();
     }
   //--- takes the current book as reported without events (first start)
   void              Baseline(void)
     {
      CbBookEntry cp[];
      CbBookEntry co[];
      if(!CbReadBook(cp,co))
         return;
      for(int i=0; i<ArraySize(cp); i++)
         if(Wanted(cp[i]))
            SetPos(cp[i].ticket,cp[i]);
      for(int i=0; i<ArraySize(co); i++)
         if(Wanted(co[i]))
            SetOrd(co[i]);
      m_store.Set("init","1");
      m_store.Save();
      CbLogInfo("first start: "+IntegerToString(ArraySize(m_pos))+" position(s) and "+IntegerToString(ArraySize(m_ord))+
                " pending order(s) taken as already known");
     }
   //--- sends the outbox in order; stops at the first entry that must be retried later
   void              Flush(void)
     {
      string keys[];
      int n=m_store.Keys("ob.",keys);
      for(int i=0; i<n && !m_stopped && !IsStopped(); i++)
        {
         string entry=m_store.Get(keys[i],"");
         int sp=StringFind(entry," ");
         if(sp<=0)
           {
            m_store.Del(keys[i]);
            m_store.Save();
            continue;
           }
         string path=StringSubstr(entry,0,sp);
         string body=StringSubstr(entry,sp+1);
         string answer="";
         int status=m_bridge.Post(path,body,answer);
         if(status>=200 && status<300)
           {
            m_reachable=true;
            m_status.SetConnected();
            m_store.Del(keys[i]);
            m_store.Save();
            CbLogDebug("event acknowledged: "+answer);
            continue;
           }
         if(CheckFatal())
            return;
         bool permanent=(status==400 || status==403 || status==404 || status==413 || status==415 || status==422 ||
                         (status==409 && m_bridge.LastCode()=="conflict"));
         if(permanent)
           {
            m_reachable=true;
            CbLogError("event dropped, the bridge refused it ("+m_bridge.LastError()+"): "+body);
            m_status.SetError("event refused: "+m_bridge.LastError());
            m_store.Del(keys[i]);
            m_store.Save();
            continue;
           }
         NoteFailure();
         return;
        }
     }
   //--- marks the bridge unreachable (a snapshot follows the reconnect)
   void              NoteFailure(void)
     {
      if(m_bridge.LastStatus()<0)
        {
         if(m_reachable)
            m_snapshotDue=true;
         m_reachable=false;
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
   //--- stops the EA after a fatal answer; true when stopped
   bool              CheckFatal(void)
     {
      if(!m_bridge.Fatal())
         return(false);
      m_stopped=true;
      string why=m_bridge.LastError();
      if(m_bridge.LastCode()=="login_mismatch")
         why="this terminal is not logged in to the master account ("+why+")";
      m_status.SetError(why+" - EA stopped");
      CbLogError(why+" - the EA stops; fix the inputs or the account and re-attach it");
      m_status.Show();
      return(true);
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
      m_server=a.server;
      string answer="";
      int status=m_bridge.Post("/v1/master/heartbeat",CbHeartbeatBody(a,"",""),answer);
      if(status>=200 && status<300)
        {
         if(!m_reachable)
            m_snapshotDue=true;
         m_reachable=true;
         m_status.HeartbeatOk();
         if(m_lastLogged!="")
           {
            CbLogInfo("bridge reachable again");
            m_lastLogged="";
           }
         CbJson j;
         if(j.Parse(answer))
           {
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
      if(status==404)
         m_status.SetError("no master account on the bridge yet (add it on the dashboard)");
      else
         NoteFailure();
     }
   void              Snapshot(void)
     {
      CbBookEntry cp[];
      CbBookEntry co[];
      if(!CbReadBook(cp,co))
         return;
      CbBookEntry pos[];
      CbBookEntry ord[];
      for(int i=0; i<ArraySize(cp); i++)
         if(Wanted(cp[i]))
           {
            int n=ArraySize(pos);
            ArrayResize(pos,n+1);
            pos[n]=cp[i];
            pos[n].ticket=KeyOf(cp[i]);
           }
      for(int i=0; i<ArraySize(co); i++)
         if(Wanted(co[i]))
           {
            int n=ArraySize(ord);
            ArrayResize(ord,n+1);
            ord[n]=co[i];
           }
      string answer="";
      int status=m_bridge.Post("/v1/master/snapshot",CbSnapshotBody("",pos,ord,m_offsetSec),answer);
      if(status>=200 && status<300)
        {
         m_snapshotDue=false;
         m_lastSnapshot=TimeLocal();
         m_reachable=true;
         CbLogDebug("snapshot sent: "+IntegerToString(ArraySize(pos))+" position(s), "+IntegerToString(ArraySize(ord))+" order(s)");
         return;
        }
      if(CheckFatal())
         return;
      if(status>=400 && status<500)
        {
         //--- refused (e.g. no master account yet): try again at the next period
         m_snapshotDue=false;
         m_lastSnapshot=TimeLocal();
         CbLogError("snapshot refused: "+m_bridge.LastError());
         return;
        }
      NoteFailure();
     }

public:
                     CbMaster(void)
     {
      m_login="";
      m_server="";
      m_offsetSec=0;
      m_stopped=false;
      m_diffNow=true;
      m_reachable=true;
      m_snapshotDue=true;
      m_lastHeartbeat=0;
      m_lastSnapshot=0;
      m_lastDiffTick=0;
      m_lastLogged="";
     }
   //--- checks the settings, reads the account, loads the state file
   //--- (CopyBridge-master-<login>.dat in the terminal's Files folder). False with the reason
   //--- printed and on the chart (bad URL / key / secret, terminal not logged in).
   bool              Init(const CbMasterSettings &s)
     {
      m_set=s;
      m_stopped=false;
      m_status.Init("Master",CbPlatformName());
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
      CbAccountInfo a;
      if(!CbReadAccount(a) || a.login=="" || a.login=="0")
        {
         CbLogError("the terminal is not logged in to an account");
         m_status.SetError("terminal not logged in");
         m_status.Show();
         return(false);
        }
      m_login=a.login;
      m_server=a.server;
      m_offsetSec=a.brokerUtcOffsetSec;
      string file="CopyBridge-master-"+m_login+".dat";
      if(!m_store.Load(file))
         CbLogError("state file "+file+" was unreadable; starting from the current book");
      LoadBook();
      if(m_store.Get("init","")!="1")
         Baseline();
      m_diffNow=true;
      m_snapshotDue=true;
      m_lastHeartbeat=0;
      m_status.Show();
      CbLogInfo("master EA started for account "+m_login+" on "+m_server+" ("+CbPlatformName()+"), bridge "+m_bridge.Origin());
      return(true);
     }
   //--- one step: diff the book, send the outbox, heartbeat and snapshot when due, status line
   void              OnTimer(void)
     {
      if(m_stopped)
        {
         m_status.Show();
         return;
        }
      uint tick=GetTickCount();
      if(m_diffNow || m_lastDiffTick==0 || (uint)(tick-m_lastDiffTick)>=1000)
        {
         m_diffNow=false;
         m_lastDiffTick=tick;
         if(m_lastDiffTick==0)
            m_lastDiffTick=1;
         if(m_store.Get("init","")!="1")
            Baseline();
         else
            Diff();
        }
      Flush();
      datetime now=TimeLocal();
      if(!m_stopped && (m_lastHeartbeat==0 || now-m_lastHeartbeat>=m_set.heartbeatSec))
         Heartbeat();
      if(!m_stopped && (m_snapshotDue || m_lastSnapshot==0 || now-m_lastSnapshot>=m_set.snapshotSec))
         Snapshot();
      m_status.Show();
     }
   //--- a trade happened (OnTradeTransaction / OnTrade / OnTick): diff on the next timer step
   void              OnTradeEvent(void) { m_diffNow=true; }
   //--- saves the state and clears the chart line
   void              Deinit(const int reason)
     {
      m_store.SaveIfDirty();
      m_status.Clear();
      CbLogInfo("master EA stopped (reason "+IntegerToString(reason)+")");
     }
   //--- true after a fatal error (bad key, wrong account): the EA does nothing more
   bool              Stopped(void) const { return(m_stopped); }
   //--- the chart status line
   string            StatusText(void) { return(m_status.Text()); }
   //--- unacknowledged events waiting in the outbox
   int               Pending(void)
     {
      string keys[];
      return(m_store.Keys("ob.",keys));
     }
  };

#endif // COPYBRIDGE_MASTERCORE_MQH
