//+------------------------------------------------------------------+
//| CopyBridge/Protocol.mqh                                  [shared] |
//| Request bodies of the bridge protocol (docs/bridge-protocol.md,   |
//| contract/bridge.ts, contract/terminal-state.ts) and the parsers   |
//| of the slave's poll answer (CbOrder) and config (CbProfile).      |
//| Decimals are written as strings with explicit digits; tickets and |
//| logins as strings; times as unix seconds (UTC); every body has a  |
//| `nonce` so equal bodies within one second still differ.           |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_PROTOCOL_MQH
#define COPYBRIDGE_PROTOCOL_MQH

#include "Types.mqh"
#include "Json.mqh"

int g_cbNonceSeq=0;
long g_cbClockBaseMs=0;
ulong g_cbClockBaseUs=0;

//--- this terminal's clock in unix ms for the latency timestamps (docs/bridge-protocol.md
//--- "Latency timestamps"): TimeGMT() at the first call plus GetMicrosecondCount() since, so ms
//--- resolution and never a step back; the constant error of the whole-second anchor is part of
//--- the clock offset the bridge estimates from sentAtMs
long CbClockMs(void)
  {
   if(g_cbClockBaseMs==0)
     {
      g_cbClockBaseMs=(long)TimeGMT()*1000;
      g_cbClockBaseUs=GetMicrosecondCount();
     }
   return(g_cbClockBaseMs+(long)((GetMicrosecondCount()-g_cbClockBaseUs)/1000));
  }

//--- a short value unique within this process run (≤ 40 chars)
string CbNonce(void)
  {
   g_cbNonceSeq++;
   return(IntegerToString((long)TimeGMT())+"-"+IntegerToString((long)GetTickCount())+"-"+IntegerToString(g_cbNonceSeq));
  }

//--- s cut to at most n characters
string CbCut(const string s,const int n)
  {
   if(StringLen(s)<=n)
      return(s);
   return(StringSubstr(s,0,n));
  }

//--- broker server time → unix seconds UTC (offsetSec = broker time − UTC)
long CbToUtc(const datetime brokerTime,const int offsetSec)
  {
   if(brokerTime<=0)
      return(0);
   return((long)brokerTime-offsetSec);
  }

//--- writes the account selector of unbound slave keys (nothing when accountNumber is "")
void CbWriteSelector(CbJsonWriter &w,const string accountNumber)
  {
   if(accountNumber!="")
      w.Str("accountNumber",accountNumber);
  }

//+------------------------------------------------------------------+
//| Heartbeat body (master and slave). status: "" (omit), "active"   |
//| or "error" (slave only). Money with 2 decimals. copyMagic: the   |
//| slave EA's magic on copies (docs/bridge-protocol.md §10.1), -1 = |
//| omitted (master).                                                |
//+------------------------------------------------------------------+
string CbHeartbeatBody(const CbAccountInfo &a,const string accountNumber,const string status,const long copyMagic=-1)
  {
   CbJsonWriter w;
   w.BeginObject();
   CbWriteSelector(w,accountNumber);
   w.Str("login",a.login);
   w.Str("server",CbCut(a.server,200));
   w.Dec("balance",a.balance,2);
   w.Dec("equity",a.equity,2);
   if(StringLen(a.currency)==3)
      w.Str("currency",a.currency);
   w.Dec("margin",a.margin,2);
   w.Dec("freeMargin",a.freeMargin,2);
   w.Int("leverage",a.leverage);
   if(a.marginMode=="hedging" || a.marginMode=="netting" || a.marginMode=="exchange")
      w.Str("marginMode",a.marginMode);
   w.Int("brokerUtcOffsetSec",a.brokerUtcOffsetSec);
   if(status!="")
      w.Str("status",status);
   if(copyMagic>=0)
      w.Str("copyMagic",IntegerToString(copyMagic));
   w.Int("sentAtMs",CbClockMs());
   w.Int("ts",(long)TimeGMT());
   w.Str("nonce",CbNonce());
   w.EndObject();
   return(w.Text());
  }

//+------------------------------------------------------------------+
//| Master signal event body (OPEN, MODIFY, CLOSE, PENDING_OPEN,     |
//| PENDING_MODIFY, PENDING_CANCEL). e: the order as on the master   |
//| (its ticket must be the ORIGINAL master ticket); volume: lots of |
//| the event (CLOSE: closed volume, 0 = everything); price: open /  |
//| order / close price; ts: unix seconds UTC.                       |
//+------------------------------------------------------------------+
string CbEventBody(const string id,const string type,const long ts,const string login,const string alias,
                   const string server,const CbBookEntry &e,const double volume,const double price,
                   const string idempotencyKey)
  {
   int digits=e.digits;
   if(digits<0 || digits>10)
      digits=5;
   CbJsonWriter w;
   w.BeginObject();
   w.Str("id",id);
   w.Str("type",type);
   w.Int("ts",ts);
   w.BeginObject("master");
   w.Str("login",login);
   if(alias!="")
      w.Str("alias",CbCut(alias,100));
   if(server!="")
      w.Str("server",CbCut(server,200));
   w.EndObject();
   w.BeginObject("order");
   w.Str("ticket",e.ticket);
   w.Str("symbol",CbCut(e.symbol,32));
   w.Str("side",e.side);
   w.Str("orderType",e.orderType);
   w.Dec("volume",volume,-1);
   w.Dec("price",price,digits);
   if(e.orderType=="STOP_LIMIT" && e.stopLimitPrice>0)
      w.Dec("stopLimitPrice",e.stopLimitPrice,digits);
   if(e.sl>0)
      w.Dec("sl",e.sl,digits);
   else
      w.Null("sl");
   if(e.tp>0)
      w.Dec("tp",e.tp,digits);
   else
      w.Null("tp");
   if(e.comment!="")
      w.Str("comment",CbCut(e.comment,64));
   w.EndObject();
   w.Str("idempotencyKey",idempotencyKey);
   //--- built when the event is detected; the body is resent byte for byte (idempotency), so it
   //--- carries no sentAtMs: heartbeats give the bridge this terminal's clock offset
   w.Int("eventAtMs",CbClockMs());
   w.EndObject();
   return(w.Text());
  }

//--- writes one snapshot position
void CbWriteSnapshotPosition(CbJsonWriter &w,const CbBookEntry &e,const int offsetSec)
  {
   int digits=e.digits;
   if(digits<0 || digits>10)
      digits=5;
   w.BeginObject();
   w.Str("ticket",e.ticket);
   w.Str("symbol",CbCut(e.symbol,32));
   w.Str("side",e.side);
   w.Dec("volume",e.volume,-1);
   w.Dec("openPrice",e.price,digits);
   w.Dec("sl",e.sl,digits);
   w.Dec("tp",e.tp,digits);
   long t=CbToUtc(e.time,offsetSec);
   if(t>946684800)
      w.Int("openTime",t);
   if(e.currentPrice>0)
      w.Dec("currentPrice",e.currentPrice,digits);
   if(e.magic>=0)
      w.Str("magic",IntegerToString(e.magic));
   w.Str("comment",CbCut(e.comment,64));
   w.EndObject();
  }

//--- writes one snapshot pending order
void CbWriteSnapshotOrder(CbJsonWriter &w,const CbBookEntry &e,const int offsetSec)
  {
   int digits=e.digits;
   if(digits<0 || digits>10)
      digits=5;
   w.BeginObject();
   w.Str("ticket",e.ticket);
   w.Str("symbol",CbCut(e.symbol,32));
   w.Str("side",e.side);
   w.Str("orderType",e.orderType);
   w.Dec("volume",e.volume,-1);
   w.Dec("price",e.price,digits);
   if(e.stopLimitPrice>0)
      w.Dec("stopLimitPrice",e.stopLimitPrice,digits);
   else
      w.Null("stopLimitPrice");
   w.Dec("sl",e.sl,digits);
   w.Dec("tp",e.tp,digits);
   if(e.magic>=0)
      w.Str("magic",IntegerToString(e.magic));
   w.Str("comment",CbCut(e.comment,64));
   long t=CbToUtc(e.time,offsetSec);
   if(t>946684800)
      w.Int("setupTime",t);
   w.EndObject();
  }

//+------------------------------------------------------------------+
//| Snapshot body (/v1/master/snapshot, /v1/slave/snapshot): at most |
//| 1000 positions and 1000 orders. offsetSec: broker time − UTC.    |
//+------------------------------------------------------------------+
string CbSnapshotBody(const string accountNumber,const CbBookEntry &positions[],const CbBookEntry &orders[],const int offsetSec)
  {
   CbJsonWriter w;
   w.BeginObject();
   CbWriteSelector(w,accountNumber);
   w.Str("nonce",CbNonce());
   w.Int("ts",(long)TimeGMT());
   w.BeginArray("positions");
   int np=(int)MathMin(ArraySize(positions),1000);
   for(int i=0; i<np; i++)
      CbWriteSnapshotPosition(w,positions[i],offsetSec);
   w.EndArray();
   w.BeginArray("orders");
   int no=(int)MathMin(ArraySize(orders),1000);
   for(int i=0; i<no; i++)
      CbWriteSnapshotOrder(w,orders[i],offsetSec);
   w.EndArray();
   w.EndObject();
   return(w.Text());
  }

//--- lots/price text of a spec value (up to 8 decimals, trailing zeros removed)
string CbSpecDec(const double v) { return(CbDecimal(v,-1)); }

//--- one spec as JSON object text (also its identity for "changed?" checks)
string CbSymbolSpecJson(const CbSymbolSpec &s)
  {
   CbJsonWriter w;
   w.BeginObject();
   w.Str("symbol",CbCut(s.symbol,32));
   int digits=s.digits;
   if(digits<0)
      digits=0;
   if(digits>10)
      digits=10;
   w.Int("digits",digits);
   w.Dec("point",s.point,-1);
   w.Dec("volumeMin",s.volumeMin,-1);
   w.Dec("volumeStep",s.volumeStep,-1);
   w.Dec("volumeMax",s.volumeMax,-1);
   w.Dec("contractSize",s.contractSize,-1);
   w.Dec("tickSize",s.tickSize,-1);
   w.Dec("tickValue",MathMax(0.0,s.tickValue),-1);
   string mode=s.tradeMode;
   if(mode!="disabled" && mode!="long_only" && mode!="short_only" && mode!="close_only")
      mode="full";
   w.Str("tradeMode",mode);
   w.Int("stopsLevel",(long)MathMax(0,s.stopsLevel));
   w.EndObject();
   return(w.Text());
  }

//+------------------------------------------------------------------+
//| /v1/slave/symbols body from spec JSON texts (CbSymbolSpecJson),  |
//| 1–200 entries.                                                   |
//+------------------------------------------------------------------+
string CbSymbolsBody(const string accountNumber,const string &specJson[])
  {
   CbJsonWriter w;
   w.BeginObject();
   CbWriteSelector(w,accountNumber);
   w.Str("nonce",CbNonce());
   w.BeginArray("symbols");
   int n=(int)MathMin(ArraySize(specJson),200);
   for(int i=0; i<n; i++)
      w.Raw("",specJson[i]);
   w.EndArray();
   w.EndObject();
   return(w.Text());
  }

//+------------------------------------------------------------------+
//| /v1/slave/orders/poll body. waitMs: 0–25000 ms; limit: 1–500.    |
//| reports: the first `count` stored report bodies (JSON objects as |
//| /v1/slave/execution/report takes them), riding on the poll       |
//| (docs/bridge-protocol.md §6.2 "Reports on the poll"; at most     |
//| 100); none: no `reports` member.                                 |
//+------------------------------------------------------------------+
string CbPollBodyWithReports(const string accountNumber,const int waitMs,const int limit,const bool redeliver,const string &reports[],const int count)
  {
   CbJsonWriter w;
   w.BeginObject();
   CbWriteSelector(w,accountNumber);
   w.Int("waitMs",(long)MathMax(0,MathMin(25000,waitMs)));
   w.Int("limit",(long)MathMax(1,MathMin(500,limit)));
   w.Bool("redeliver",redeliver);
   w.Str("nonce",CbNonce());
   if(count>0)
     {
      w.BeginArray("reports");
      for(int i=0; i<count && i<ArraySize(reports); i++)
         w.Raw("",reports[i]);
      w.EndArray();
     }
   w.EndObject();
   return(w.Text());
  }

//--- a poll body carrying no report
string CbPollBody(const string accountNumber,const int waitMs,const int limit,const bool redeliver)
  {
   string none[];
   return(CbPollBodyWithReports(accountNumber,waitMs,limit,redeliver,none,0));
  }

//+------------------------------------------------------------------+
//| /v1/slave/execution/report body of an outcome. Prices with the   |
//| outcome's digits (8 trimmed when unknown), volume in lots,       |
//| fillTime unix seconds with milliseconds, profit with 2 decimals. |
//+------------------------------------------------------------------+
string CbReportBody(const string accountNumber,const string orderId,const CbOutcome &o)
  {
   CbJsonWriter w;
   w.BeginObject();
   CbWriteSelector(w,accountNumber);
   w.Str("orderId",orderId);
   string status=o.status;
   if(status=="")
      status="error";
   w.Str("status",status);
   if(o.ticket!="")
      w.Str("slaveTicket",o.ticket);
   if(o.remainingTicket!="")
      w.Str("remainingTicket",o.remainingTicket);
   if(o.fillPrice>0)
      w.Dec("fillPrice",o.fillPrice,o.digits);
   if(o.volume>0)
      w.Dec("volume",o.volume,-1);
   if(o.fillTime>946684800.0)
      w.Raw("fillTime",DoubleToString(o.fillTime,3));
   if(o.point>0)
      w.Dec("point",o.point,-1);
   if(o.hasProfit)
      w.Dec("profit",o.profit,2);
   if(o.errorCode!=0)
      w.Int("errorCode",o.errorCode);
   if(o.errorMessage!="")
      w.Str("errorMessage",CbCut(o.errorMessage,500));
   if(o.executedAtMs>0)
      w.Int("executedAtMs",o.executedAtMs);
   w.Int("sentAtMs",CbClockMs());
   w.Int("ts",(long)TimeGMT());
   w.Str("nonce",CbNonce());
   w.EndObject();
   return(w.Text());
  }

//--- a rejected/error outcome with a reason
void CbOutcomeFail(CbOutcome &o,const string status,const int code,const string message)
  {
   o.status=status;
   o.errorCode=code;
   o.errorMessage=message;
  }

//--- decimal field of an order: text kept in `text`, parsed value returned (0 when null)
double CbOrderDec(CbJson &j,const string path,string &text)
  {
   text=j.Str(path,"");
   if(text=="")
      return(0.0);
   return(StringToDouble(text));
  }

//+------------------------------------------------------------------+
//| Orders of a poll answer (j parsed from it), in the order given.  |
//| False when the answer has no "orders" array. An order whose      |
//| fields cannot be read keeps what it has (SlaveCore rejects it).  |
//+------------------------------------------------------------------+
bool CbParseOrders(CbJson &j,CbOrder &orders[])
  {
   ArrayResize(orders,0);
   if(j.Type("orders")!=CB_JSON_ARRAY)
      return(false);
   int n=j.Count("orders");
   ArrayResize(orders,n);
   for(int i=0; i<n; i++)
     {
      string p="orders."+IntegerToString(i)+".";
      orders[i].orderId=j.Str(p+"orderId","");
      orders[i].action=j.Str(p+"action","");
      orders[i].signalId=j.Str(p+"signalId","");
      orders[i].masterTicket=j.Str(p+"masterTicket","");
      orders[i].slaveTicket=j.Str(p+"slaveTicket","");
      orders[i].symbol=j.Str(p+"symbol","");
      orders[i].side=j.Str(p+"side","");
      orders[i].orderType=j.Str(p+"orderType","");
      string t="";
      orders[i].volume=CbOrderDec(j,p+"volume",t);
      orders[i].volumeStr=t;
      orders[i].price=CbOrderDec(j,p+"price",t);
      orders[i].priceStr=t;
      orders[i].stopLimitPrice=CbOrderDec(j,p+"stopLimitPrice",t);
      orders[i].stopLimitPriceStr=t;
      orders[i].sl=CbOrderDec(j,p+"sl",t);
      orders[i].slStr=t;
      orders[i].tp=CbOrderDec(j,p+"tp",t);
      orders[i].tpStr=t;
      orders[i].comment=j.Str(p+"comment","");
      orders[i].magicStr=j.Str(p+"magic","");
      orders[i].magic=j.Int(p+"magic",0);
      orders[i].maxSpreadPts=(int)j.Int(p+"maxSpreadPts",-1);
      orders[i].maxDeviationPts=(int)j.Int(p+"maxDeviationPts",-1);
      orders[i].createdAtMs=j.Int(p+"createdAtMs",0);
      orders[i].deliveryCount=(int)j.Int(p+"deliveryCount",1);
      //--- unix ms (13 digits): read as a long, never through a double
      orders[i].expiresAtMs=j.Int(p+"expiresAtMs",0);
     }
   return(true);
  }

//--- joins the strings of a JSON array at path with commas ("" when absent/empty)
string CbJoinArray(CbJson &j,const string path)
  {
   string out="";
   int n=j.Count(path);
   for(int i=0; i<n; i++)
     {
      string v=j.Str(path+"."+IntegerToString(i),"");
      if(v=="")
         continue;
      if(out!="")
         out=out+",";
      out=out+v;
     }
   return(out);
  }

//+------------------------------------------------------------------+
//| The bridge's slave config (`base` = "config" of a heartbeat or   |
//| poll answer) into p: riskEnabled, maxSpreadPts, maxDeviationPts, |
//| closeOnly (false when absent) and, when config.profile is not    |
//| null, the profile fields (p.present = true). False when there is |
//| no config object.                                                |
//+------------------------------------------------------------------+
bool CbParseProfile(CbJson &j,const string base,CbProfile &p)
  {
   if(j.Type(base)!=CB_JSON_OBJECT)
      return(false);
   string b=base+".";
   p.riskEnabled=j.Bool(b+"riskEnabled",false);
   p.maxSpreadPts=(int)j.Int(b+"maxSpreadPts",-1);
   p.maxDeviationPts=(int)j.Int(b+"maxDeviationPts",-1);
   p.closeOnly=j.Bool(b+"closeOnly",false);
   p.present=(j.Type(b+"profile")==CB_JSON_OBJECT);
   if(!p.present)
      return(true);
   string q=b+"profile.";
   p.retryMax=(int)j.Int(q+"retryMax",p.retryMax);
   p.retryBackoffMs=(int)j.Int(q+"retryBackoffMs",p.retryBackoffMs);
   p.slipToMarket=j.Bool(q+"slipToMarket",p.slipToMarket);
   p.symbolWhitelist=CbJoinArray(j,q+"symbolWhitelist");
   p.symbolBlacklist=CbJoinArray(j,q+"symbolBlacklist");
   p.tradingHours=j.Str(q+"tradingHours","");
   p.equityMin=j.Num(q+"equityMin",0.0);
   p.overrideLocal=j.Bool(q+"overrideLocal",false);
   return(true);
  }

#endif // COPYBRIDGE_PROTOCOL_MQH
