//+------------------------------------------------------------------+
//| CopyBridge/Platform4.mqh                               [MT4 only] |
//| The platform layer of the MetaTrader 4 EAs over the MT4 trade API |
//| (OrderSend / OrderClose / OrderModify / OrderDelete / OrderSelect |
//| / MarketInfo): reads the book, the account and symbol specs,      |
//| explains how an order left the book, and executes one slave order |
//| (CbExecute) with volume/price normalisation, RefreshRates before  |
//| every attempt, a bounded wait for a busy trade context, retries   |
//| on 135/136/137/138/146 and the MT4 partial-close ticket change    |
//| (the remainder gets a new ticket with comment "from #<old>").     |
//| Interface: terminals/harness/DESIGN.md §7. Facts: mql-facts §5.   |
//| Units: volumes in lots, prices as quoted, distances in points,    |
//| money in account currency, times in seconds.                      |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_PLATFORM4_MQH
#define COPYBRIDGE_PLATFORM4_MQH

#include "Types.mqh"

#define CB_P4_MAX_RETRIES       10     // upper bound on profile.retryMax per request
#define CB_P4_MAX_SLEEP_MS      2000   // longest single backoff pause
#define CB_P4_SLEEP_BUDGET_MS   8000   // all pauses of one CbExecute together
#define CB_P4_CONTEXT_WAIT_MS   5000   // longest wait for a busy trade context
#define CB_P4_DEFAULT_DEVIATION 20     // points, when neither order nor profile names one
#define CB_P4_ERR_EA            ERR_INVALID_FUNCTION_PARAMETER_VALUE // EA-side refusal (4051)

int  g_cbP4SleptMs = 0;                // pauses spent by the running CbExecute, ms

//+------------------------------------------------------------------+
//| Platform name sent to the bridge and shown in logs.               |
//+------------------------------------------------------------------+
string CbPlatformName()
  {
   return "MT4";
  }

//+------------------------------------------------------------------+
//| Short English text of an MT4 trade error (docs.mql4.com errors).  |
//+------------------------------------------------------------------+
string CbP4ErrorText(const int code)
  {
   if(code==0)   return "No error";
   if(code==1)   return "No error returned, but the result is unknown";
   if(code==2)   return "Common error";
   if(code==3)   return "Invalid trade parameters";
   if(code==4)   return "Trade server is busy";
   if(code==5)   return "Old version of the client terminal";
   if(code==6)   return "No connection with trade server";
   if(code==7)   return "Not enough rights";
   if(code==8)   return "Too frequent requests";
   if(code==9)   return "Malfunctional trade operation";
   if(code==64)  return "Account disabled";
   if(code==65)  return "Invalid account";
   if(code==128) return "Trade timeout";
   if(code==129) return "Invalid price";
   if(code==130) return "Invalid stops";
   if(code==131) return "Invalid trade volume";
   if(code==132) return "Market is closed";
   if(code==133) return "Trade is disabled";
   if(code==134) return "Not enough money";
   if(code==135) return "Price changed";
   if(code==136) return "Off quotes";
   if(code==137) return "Broker is busy";
   if(code==138) return "Requote";
   if(code==139) return "Order is locked";
   if(code==140) return "Buy orders only allowed";
   if(code==141) return "Too many requests";
   if(code==145) return "Modification denied because order is too close to market";
   if(code==146) return "Trade context is busy";
   if(code==147) return "Expirations are denied by broker";
   if(code==148) return "The amount of open and pending orders has reached the limit";
   if(code==149) return "An attempt to open an order opposite to the existing one when hedging is disabled";
   if(code==150) return "An attempt to close an order contravening the FIFO rule";
   if(code==4106) return "Unknown symbol";
   if(code==4108) return "Invalid ticket";
   if(code==4109) return "Trade is not allowed in the expert properties";
   if(code==4110) return "Longs are not allowed in the expert properties";
   if(code==4111) return "Shorts are not allowed in the expert properties";
   if(code==4112) return "Automated trading by Expert Advisors/Scripts disabled by trade server";
   return "Error " + IntegerToString(code);
  }

//+------------------------------------------------------------------+
//| true for errors worth a retry with fresh prices.                  |
//+------------------------------------------------------------------+
bool CbP4IsRetryable(const int code)
  {
   return (code==ERR_PRICE_CHANGED || code==ERR_OFF_QUOTES ||
           code==ERR_BROKER_BUSY || code==ERR_REQUOTE || code==ERR_TRADE_CONTEXT_BUSY);
  }

//+------------------------------------------------------------------+
//| Fills the outcome of a refused order.                             |
//| status: "rejected" (broker/market refused) or "error" (EA side).  |
//+------------------------------------------------------------------+
void CbP4Fail(CbOutcome &out,const string status,const int code,const string message)
  {
   out.status=status;
   out.errorCode=code;
   out.errorMessage=message;
   out.fillTime=(double)TimeGMT();
  }

//+------------------------------------------------------------------+
//| Outcome of a failed trade call: trade-server errors (< 4000) are  |
//| "rejected", terminal/EA errors "error"; text from the table.      |
//+------------------------------------------------------------------+
void CbP4FailFromError(CbOutcome &out,const int code,const string what)
  {
   CbP4Fail(out,(code>0 && code<4000) ? "rejected" : "error",code,what+": "+CbP4ErrorText(code));
  }

//+------------------------------------------------------------------+
//| Trading permissions of terminal, program and account.             |
//| false with the reason in `why` when the EA may not trade.         |
//+------------------------------------------------------------------+
bool CbP4TradeAllowed(string &why)
  {
   why="";
   if(TerminalInfoInteger(TERMINAL_TRADE_ALLOWED)==0 || MQLInfoInteger(MQL_TRADE_ALLOWED)==0 ||
      AccountInfoInteger(ACCOUNT_TRADE_EXPERT)==0)
     {
      why="AutoTrading disabled";
      return false;
     }
   if(AccountInfoInteger(ACCOUNT_TRADE_ALLOWED)==0)
     {
      why="Trading is not allowed on this account (investor login?)";
      return false;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Waits (Sleep 50 ms steps) while the trade context is busy, at     |
//| most CB_P4_CONTEXT_WAIT_MS. false when it stayed busy.            |
//+------------------------------------------------------------------+
bool CbP4WaitContext()
  {
   int waited=0;
   while(IsTradeContextBusy())
     {
      if(waited>=CB_P4_CONTEXT_WAIT_MS || IsStopped())
         return false;
      Sleep(50);
      waited+=50;
      g_cbP4SleptMs+=50;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Pause before retry `attempt` (0-based): the profile's backoff     |
//| doubled per attempt, each ≤ CB_P4_MAX_SLEEP_MS, all within        |
//| CB_P4_SLEEP_BUDGET_MS. false when the budget is spent.            |
//+------------------------------------------------------------------+
bool CbP4Backoff(const CbProfile &p,const int attempt)
  {
   int wait=p.retryBackoffMs;
   if(wait<0)
      wait=0;
   for(int i=0; i<attempt && wait<CB_P4_MAX_SLEEP_MS; i++)
      wait*=2;
   if(wait>CB_P4_MAX_SLEEP_MS)
      wait=CB_P4_MAX_SLEEP_MS;
   if(g_cbP4SleptMs+wait>CB_P4_SLEEP_BUDGET_MS)
      return false;
   if(wait>0)
      Sleep(wait);
   g_cbP4SleptMs+=wait;
   return !IsStopped();
  }

//+------------------------------------------------------------------+
//| Retries allowed by the profile, clamped to 0…CB_P4_MAX_RETRIES.  |
//+------------------------------------------------------------------+
int CbP4Retries(const CbProfile &p)
  {
   int r=p.retryMax;
   if(r<0)
      r=0;
   if(r>CB_P4_MAX_RETRIES)
      r=CB_P4_MAX_RETRIES;
   return r;
  }

//+------------------------------------------------------------------+
//| Decimal places of a volume step (0.01 → 2, 0.1 → 1, 1 → 0).       |
//+------------------------------------------------------------------+
int CbP4StepDigits(const double step)
  {
   if(step<=0.0)
      return 2;
   int d=0;
   while(d<8)
     {
      double scaled=step*MathPow(10.0,d);
      if(MathAbs(scaled-MathRound(scaled))<1e-7)
         break;
      d++;
     }
   return d;
  }

//+------------------------------------------------------------------+
//| Rounds a volume DOWN to the symbol's lot step (lots); 0 when ≤ 0. |
//+------------------------------------------------------------------+
double CbP4FloorVolume(const CbSymbolSpec &s,const double volume)
  {
   if(volume<=0.0)
      return 0.0;
   double step=s.volumeStep;
   if(step<=0.0)
      step=0.01;
   double steps=MathFloor(volume/step+1e-7);
   return NormalizeDouble(steps*step,CbP4StepDigits(step));
  }

//+------------------------------------------------------------------+
//| Rounds a price to the symbol's tick size and digits; 0 stays 0.   |
//+------------------------------------------------------------------+
double CbP4NormalizePrice(const CbSymbolSpec &s,const double price)
  {
   if(price<=0.0)
      return 0.0;
   double p=price;
   if(s.tickSize>0.0 && s.tickSize>s.point*1.5)
      p=MathRound(p/s.tickSize)*s.tickSize;
   return NormalizeDouble(p,s.digits);
  }

//+------------------------------------------------------------------+
//| Protocol word of a SYMBOL_TRADE_MODE value.                       |
//+------------------------------------------------------------------+
string CbP4TradeModeWord(const long mode)
  {
   if(mode==SYMBOL_TRADE_MODE_DISABLED)  return "disabled";
   if(mode==SYMBOL_TRADE_MODE_LONGONLY)  return "long_only";
   if(mode==SYMBOL_TRADE_MODE_SHORTONLY) return "short_only";
   if(mode==SYMBOL_TRADE_MODE_CLOSEONLY) return "close_only";
   return "full";
  }

//+------------------------------------------------------------------+
//| Trading specification of a symbol via MarketInfo (selects it in   |
//| Market Watch first). false when the broker has no such symbol.    |
//+------------------------------------------------------------------+
bool CbReadSymbolSpec(const string symbol,CbSymbolSpec &s)
  {
   if(symbol=="")
      return false;
   ResetLastError();
   if(!SymbolSelect(symbol,true))
      return false;
   s.symbol=symbol;
   s.digits=(int)MarketInfo(symbol,MODE_DIGITS);
   s.point=MarketInfo(symbol,MODE_POINT);
   s.volumeMin=MarketInfo(symbol,MODE_MINLOT);
   s.volumeStep=MarketInfo(symbol,MODE_LOTSTEP);
   s.volumeMax=MarketInfo(symbol,MODE_MAXLOT);
   s.contractSize=MarketInfo(symbol,MODE_LOTSIZE);
   s.tickSize=MarketInfo(symbol,MODE_TICKSIZE);
   s.tickValue=MarketInfo(symbol,MODE_TICKVALUE);
   s.stopsLevel=(int)MarketInfo(symbol,MODE_STOPLEVEL);
   if(MarketInfo(symbol,MODE_TRADEALLOWED)==0.0)
      s.tradeMode="disabled";
   else
      s.tradeMode=CbP4TradeModeWord(SymbolInfoInteger(symbol,SYMBOL_TRADE_MODE));
   if(s.point<=0.0)
      s.point=MathPow(10.0,-s.digits);
   if(s.tickSize<=0.0)
      s.tickSize=s.point;
   return true;
  }

//+------------------------------------------------------------------+
//| Account state for heartbeats. false when not logged in.           |
//| MT4 accounts always hedge; brokerUtcOffsetSec = TimeTradeServer() |
//| − TimeGMT() rounded to the nearest 15 minutes.                    |
//+------------------------------------------------------------------+
bool CbReadAccount(CbAccountInfo &a)
  {
   long login=AccountInfoInteger(ACCOUNT_LOGIN);
   if(login<=0)
      return false;
   a.login=IntegerToString(login);
   a.server=AccountInfoString(ACCOUNT_SERVER);
   a.company=AccountInfoString(ACCOUNT_COMPANY);
   a.currency=AccountInfoString(ACCOUNT_CURRENCY);
   a.balance=AccountInfoDouble(ACCOUNT_BALANCE);
   a.equity=AccountInfoDouble(ACCOUNT_EQUITY);
   a.margin=AccountInfoDouble(ACCOUNT_MARGIN);
   a.freeMargin=AccountInfoDouble(ACCOUNT_MARGIN_FREE);
   a.leverage=(int)AccountInfoInteger(ACCOUNT_LEVERAGE);
   a.marginMode="hedging";
   long diff=(long)TimeTradeServer()-(long)TimeGMT();
   a.brokerUtcOffsetSec=(int)(MathRound((double)diff/900.0)*900.0);
   return true;
  }

//+------------------------------------------------------------------+
//| Side and protocol order type of an MT4 order type (OP_*).         |
//| orderType "MARKET" for OP_BUY / OP_SELL; false for other codes.   |
//+------------------------------------------------------------------+
bool CbP4Kind(const int type,string &side,string &orderType)
  {
   if(type==OP_BUY)       { side="BUY";  orderType="MARKET"; return true; }
   if(type==OP_SELL)      { side="SELL"; orderType="MARKET"; return true; }
   if(type==OP_BUYLIMIT)  { side="BUY";  orderType="LIMIT";  return true; }
   if(type==OP_SELLLIMIT) { side="SELL"; orderType="LIMIT";  return true; }
   if(type==OP_BUYSTOP)   { side="BUY";  orderType="STOP";   return true; }
   if(type==OP_SELLSTOP)  { side="SELL"; orderType="STOP";   return true; }
   return false;
  }

//+------------------------------------------------------------------+
//| Copies the selected order (OrderSelect) into a book entry.        |
//+------------------------------------------------------------------+
void CbP4FillEntry(CbBookEntry &e,const string side,const string orderType)
  {
   e.ticket=IntegerToString(OrderTicket());
   e.symbol=OrderSymbol();
   e.side=side;
   e.orderType=orderType;
   e.volume=OrderLots();
   e.price=OrderOpenPrice();
   e.stopLimitPrice=0.0;
   e.sl=OrderStopLoss();
   e.tp=OrderTakeProfit();
   e.magic=OrderMagicNumber();
   e.comment=OrderComment();
   e.time=OrderOpenTime();
   e.digits=(int)MarketInfo(e.symbol,MODE_DIGITS);
   //--- an open order's OrderClosePrice is the price it would close at now (bid BUY, ask SELL)
   e.currentPrice=(orderType=="MARKET") ? OrderClosePrice() : 0.0;
  }

//+------------------------------------------------------------------+
//| Every open position (OP_BUY/OP_SELL) and pending order            |
//| (OP_*LIMIT/OP_*STOP) of the account. false when an order could    |
//| not be selected (the caller must not treat it as closed then).    |
//+------------------------------------------------------------------+
bool CbReadBook(CbBookEntry &positions[],CbBookEntry &orders[])
  {
   ArrayResize(positions,0);
   ArrayResize(orders,0);
   int total=OrdersTotal();
   int np=0;
   int no=0;
   for(int i=0; i<total; i++)
     {
      if(!OrderSelect(i,SELECT_BY_POS,MODE_TRADES))
         return false;
      string side="";
      string orderType="";
      if(!CbP4Kind(OrderType(),side,orderType))
         continue;
      if(orderType=="MARKET")
        {
         ArrayResize(positions,np+1);
         CbP4FillEntry(positions[np],side,orderType);
         np++;
        }
      else
        {
         ArrayResize(orders,no+1);
         CbP4FillEntry(orders[no],side,orderType);
         no++;
        }
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Reason word of a closed MT4 order from its comment: "[sl]" → sl,  |
//| "[tp]" → tp, "so:" / "[so]" (stop out) → so, otherwise manual.    |
//+------------------------------------------------------------------+
string CbP4CloseReason(const string comment)
  {
   string c=comment;
   StringToLower(c);
   if(StringFind(c,"[sl]")>=0)
      return "sl";
   if(StringFind(c,"[tp]")>=0)
      return "tp";
   if(StringFind(c,"[so]")>=0 || StringFind(c,"so:")==0)
      return "so";
   return "manual";
  }

//+------------------------------------------------------------------+
//| How an order that left the book ended (OrderSelect by ticket in   |
//| MODE_HISTORY): closed position → close price, close time (server  |
//| time), OrderProfit (account currency), reason sl|tp|so|manual;    |
//| deleted pending order → cancelled; a pending order that is now a  |
//| market position → filled. false when the ticket is unknown or     |
//| still pending.                                                    |
//+------------------------------------------------------------------+
bool CbClosedInfo(const string ticket,double &price,datetime &time,double &profit,string &reason)
  {
   price=0.0;
   time=0;
   profit=0.0;
   reason="";
   int t=(int)StringToInteger(ticket);
   if(t<=0 || !OrderSelect(t,SELECT_BY_TICKET,MODE_HISTORY))
      return false;
   int type=OrderType();
   if((long)OrderCloseTime()==0)
     {
      if(type==OP_BUY || type==OP_SELL)
        {
         price=OrderOpenPrice();
         time=OrderOpenTime();
         reason="filled";               // the pending order triggered into this position
         return true;
        }
      return false;
     }
   if(type!=OP_BUY && type!=OP_SELL)
     {
      price=OrderOpenPrice();
      time=OrderCloseTime();
      reason="cancelled";
      return true;
     }
   price=OrderClosePrice();
   time=OrderCloseTime();
   profit=OrderProfit();
   reason=CbP4CloseReason(OrderComment());
   return true;
  }

//+------------------------------------------------------------------+
//| Comment put on every copied order: the bridge's cb:<ticket>[/leg] |
//| (CbCopyCommentOf, Types.mqh), else cb:<masterTicket>.             |
//+------------------------------------------------------------------+
string CbP4CopyComment(const CbOrder &o)
  {
   return CbCopyCommentOf(o);
  }

//+------------------------------------------------------------------+
//| Slippage allowed on market requests, points.                      |
//+------------------------------------------------------------------+
int CbP4Deviation(const CbOrder &o,const CbProfile &p)
  {
   if(o.maxDeviationPts>=0)
      return o.maxDeviationPts;
   if(p.maxDeviationPts>=0)
      return p.maxDeviationPts;
   return CB_P4_DEFAULT_DEVIATION;
  }

//+------------------------------------------------------------------+
//| Ticket of an open order of this magic whose comment is `comment`  |
//| and whose kind is market (`market` true) or pending; 0 = none.    |
//| `symbol` / `side` "" match any.                                   |
//+------------------------------------------------------------------+
int CbP4Find(const string symbol,const string side,const long magic,const string comment,const bool market)
  {
   int total=OrdersTotal();
   for(int i=0; i<total; i++)
     {
      if(!OrderSelect(i,SELECT_BY_POS,MODE_TRADES))
         continue;
      string s="";
      string k="";
      if(!CbP4Kind(OrderType(),s,k))
         continue;
      if((k=="MARKET")!=market)
         continue;
      if(OrderMagicNumber()!=magic)
         continue;
      if(symbol!="" && OrderSymbol()!=symbol)
         continue;
      if(side!="" && s!=side)
         continue;
      if(comment!="" && OrderComment()!=comment)
         continue;
      return OrderTicket();
     }
   return 0;
  }

//+------------------------------------------------------------------+
//| Ticket `t` if still open, else the ticket its volume moved to     |
//| after partial closes (history comment "to #<new>", followed up to |
//| 10 times). 0 when the order is no longer open.                    |
//+------------------------------------------------------------------+
int CbP4ResolveOpen(const int t)
  {
   int ticket=t;
   for(int hop=0; hop<10 && ticket>0; hop++)
     {
      if(!OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES))
         return 0;
      if((long)OrderCloseTime()==0)
         return ticket;
      string c=OrderComment();
      int at=StringFind(c,"to #");
      if(at<0)
         return 0;
      ticket=(int)StringToInteger(StringSubstr(c,at+4));
     }
   return 0;
  }

//+------------------------------------------------------------------+
//| Ticket of the remainder of a partially closed order `closed`:     |
//| the closed part's comment "to #<new>", else the open order whose  |
//| comment is "from #<closed>". 0 when none (full close).            |
//+------------------------------------------------------------------+
int CbP4Remainder(const int closed)
  {
   if(OrderSelect(closed,SELECT_BY_TICKET,MODE_HISTORY))
     {
      string c=OrderComment();
      int at=StringFind(c,"to #");
      if(at>=0)
        {
         int t=(int)StringToInteger(StringSubstr(c,at+4));
         if(t>0 && OrderSelect(t,SELECT_BY_TICKET,MODE_TRADES) && (long)OrderCloseTime()==0)
            return t;
        }
     }
   string want="from #"+IntegerToString(closed);
   int total=OrdersTotal();
   for(int i=0; i<total; i++)
     {
      if(!OrderSelect(i,SELECT_BY_POS,MODE_TRADES))
         continue;
      if(StringFind(OrderComment(),want)==0)
        {
         string rest=StringSubstr(OrderComment(),StringLen(want));
         if(rest=="" || StringGetCharacter(rest,0)<'0' || StringGetCharacter(rest,0)>'9')
            return OrderTicket();
        }
     }
   return 0;
  }

//+------------------------------------------------------------------+
//| Fills outcome fields every successful report carries.             |
//+------------------------------------------------------------------+
void CbP4Succeed(CbOutcome &out,const string status,const int ticket,const CbSymbolSpec &s)
  {
   out.status=status;
   out.ticket=(ticket>0) ? IntegerToString(ticket) : "";
   out.point=s.point;
   out.digits=s.digits;
   out.fillTime=(double)TimeGMT();
   out.errorCode=0;
   out.errorMessage="";
  }

//+------------------------------------------------------------------+
//| Fresh market price for a side: Ask to buy, Bid to sell.           |
//+------------------------------------------------------------------+
double CbP4Quote(const string symbol,const bool buy)
  {
   RefreshRates();
   return buy ? MarketInfo(symbol,MODE_ASK) : MarketInfo(symbol,MODE_BID);
  }

//+------------------------------------------------------------------+
//| OrderSend with the profile's retries. Market orders (OP_BUY /     |
//| OP_SELL) take a fresh quote before each attempt. After error 128  |
//| (trade timeout) the book is re-read: an order of this magic and   |
//| comment that appeared meanwhile is the answer (never sent twice). |
//| Returns the ticket, or -1 with `err` set.                         |
//+------------------------------------------------------------------+
int CbP4Send(const string symbol,const int cmd,const double volume,const double pendingPrice,const int slippage,
             const double sl,const double tp,const string comment,const long magic,const CbProfile &p,int &err)
  {
   bool market=(cmd==OP_BUY || cmd==OP_SELL);
   int digits=(int)MarketInfo(symbol,MODE_DIGITS);
   int before=CbP4Find(symbol,"",magic,comment,market);
   int retries=CbP4Retries(p);
   err=0;
   for(int attempt=0; ; attempt++)
     {
      if(!CbP4WaitContext())
        {
         err=ERR_TRADE_CONTEXT_BUSY;
         return -1;
        }
      double price=pendingPrice;
      if(market)
         price=CbP4Quote(symbol,cmd==OP_BUY);
      else
         RefreshRates();
      ResetLastError();
      int ticket=OrderSend(symbol,cmd,volume,NormalizeDouble(price,digits),slippage,sl,tp,comment,(int)magic,0,clrNONE);
      err=GetLastError();
      if(ticket>0)
         return ticket;
      if(err==ERR_TRADE_TIMEOUT)
        {
         Sleep(500);
         g_cbP4SleptMs+=500;
         int found=CbP4Find(symbol,"",magic,comment,market);
         if(found>0 && found!=before)
            return found;
        }
      else
         if(!CbP4IsRetryable(err))
            return -1;
      if(attempt>=retries || !CbP4Backoff(p,attempt))
         return -1;
     }
   return -1;
  }

//+------------------------------------------------------------------+
//| Market open (OPEN, and PENDING_OPEN slipped to market). An open   |
//| order already carrying this copy's comment is adopted.            |
//+------------------------------------------------------------------+
bool CbP4Open(const CbOrder &o,const CbProfile &p,const long magic,const CbSymbolSpec &s,const double volume,CbOutcome &out)
  {
   string comment=CbP4CopyComment(o);
   int existing=(comment!="") ? CbP4Find(s.symbol,o.side,magic,comment,true) : 0;
   if(existing>0 && OrderSelect(existing,SELECT_BY_TICKET,MODE_TRADES))
     {
      CbP4Succeed(out,"filled",existing,s);
      out.fillPrice=OrderOpenPrice();
      out.volume=OrderLots();
      return true;
     }
   int cmd=(o.side=="BUY") ? OP_BUY : OP_SELL;
   int err=0;
   int ticket=CbP4Send(s.symbol,cmd,volume,0.0,CbP4Deviation(o,p),CbP4NormalizePrice(s,o.sl),
                       CbP4NormalizePrice(s,o.tp),comment,magic,p,err);
   if(ticket<=0)
     {
      CbP4FailFromError(out,err,"Open "+o.side+" "+s.symbol);
      return false;
     }
   CbP4Succeed(out,"filled",ticket,s);
   out.volume=volume;
   if(OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES))
     {
      out.fillPrice=OrderOpenPrice();
      out.volume=OrderLots();
     }
   return true;
  }

//+------------------------------------------------------------------+
//| true when a pending price has already been passed by the market.  |
//+------------------------------------------------------------------+
bool CbP4PendingPassed(const CbOrder &o,const double price,const string symbol)
  {
   RefreshRates();
   double bid=MarketInfo(symbol,MODE_BID);
   double ask=MarketInfo(symbol,MODE_ASK);
   if(bid<=0.0 || ask<=0.0)
      return false;
   if(o.orderType=="LIMIT")
      return (o.side=="BUY") ? (price>=ask) : (price<=bid);
   return (o.side=="BUY") ? (price<=ask) : (price>=bid);
  }

//+------------------------------------------------------------------+
//| PENDING_OPEN: OP_BUYLIMIT/OP_SELLLIMIT/OP_BUYSTOP/OP_SELLSTOP.    |
//| STOP_LIMIT does not exist on MT4 (rejected). A price already      |
//| passed becomes a market order when slipToMarket allows it.        |
//+------------------------------------------------------------------+
bool CbP4PendingOpen(const CbOrder &o,const CbProfile &p,const long magic,const CbSymbolSpec &s,const double volume,CbOutcome &out)
  {
   string comment=CbP4CopyComment(o);
   int existing=(comment!="") ? CbP4Find(s.symbol,o.side,magic,comment,false) : 0;
   if(existing>0)
     {
      CbP4Succeed(out,"placed",existing,s);
      out.fillPrice=CbP4NormalizePrice(s,o.price);
      out.volume=volume;
      return true;
     }
   int cmd=-1;
   if(o.orderType=="LIMIT")
      cmd=(o.side=="BUY") ? OP_BUYLIMIT : OP_SELLLIMIT;
   if(o.orderType=="STOP")
      cmd=(o.side=="BUY") ? OP_BUYSTOP : OP_SELLSTOP;
   if(cmd<0)
     {
      CbP4Fail(out,"rejected",CB_P4_ERR_EA,"Order type "+o.orderType+" is not supported on MT4");
      return false;
     }
   double price=CbP4NormalizePrice(s,o.price);
   if(price<=0.0)
     {
      CbP4Fail(out,"error",CB_P4_ERR_EA,"Pending order without a price");
      return false;
     }
   if(CbP4PendingPassed(o,price,s.symbol))
     {
      if(p.slipToMarket)
         return CbP4Open(o,p,magic,s,volume,out);
      CbP4Fail(out,"rejected",ERR_INVALID_PRICE,"Pending price "+DoubleToString(price,s.digits)+" already passed by the market");
      return false;
     }
   int err=0;
   int ticket=CbP4Send(s.symbol,cmd,volume,price,CbP4Deviation(o,p),CbP4NormalizePrice(s,o.sl),
                       CbP4NormalizePrice(s,o.tp),comment,magic,p,err);
   if(ticket<=0)
     {
      CbP4FailFromError(out,err,"Place "+o.side+" "+o.orderType+" "+s.symbol);
      return false;
     }
   CbP4Succeed(out,"placed",ticket,s);
   out.fillPrice=price;
   out.volume=volume;
   return true;
  }

//+------------------------------------------------------------------+
//| OrderModify with the profile's retries; error 1 (nothing changed) |
//| counts as success. The order must be open. Returns the error code |
//| (0 = modified).                                                   |
//+------------------------------------------------------------------+
int CbP4ModifyTicket(const int ticket,const double price,const double sl,const double tp,const CbProfile &p)
  {
   int retries=CbP4Retries(p);
   int err=0;
   for(int attempt=0; ; attempt++)
     {
      if(!CbP4WaitContext())
         return ERR_TRADE_CONTEXT_BUSY;
      RefreshRates();
      if(!OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES))
         return ERR_INVALID_TICKET;
      datetime expiration=OrderExpiration();
      ResetLastError();
      bool ok=OrderModify(ticket,price,sl,tp,expiration,clrNONE);
      err=GetLastError();
      if(ok || err==ERR_NO_RESULT)
         return 0;
      if(!CbP4IsRetryable(err) || attempt>=retries || !CbP4Backoff(p,attempt))
         return (err==0) ? CB_P4_ERR_EA : err;
     }
   return err;
  }

//+------------------------------------------------------------------+
//| Open ticket an order acts on: slaveTicket (following partial-     |
//| close hops), else the order carrying cb:<masterTicket> of the     |
//| wanted kind. 0 when none is open.                                 |
//+------------------------------------------------------------------+
int CbP4Target(const CbOrder &o,const long magic,const bool market)
  {
   if(o.slaveTicket!="")
     {
      int t=CbP4ResolveOpen((int)StringToInteger(o.slaveTicket));
      if(t>0)
         return t;
     }
   string comment=CbP4CopyComment(o);
   if(comment=="")
      return 0;
   return CbP4Find("","",magic,comment,market);
  }

//+------------------------------------------------------------------+
//| MODIFY: new SL/TP on the copied position (open price unchanged).  |
//+------------------------------------------------------------------+
bool CbP4Modify(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   int ticket=CbP4Target(o,magic,true);
   if(ticket<=0 || !OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES))
     {
      CbP4Fail(out,"error",ERR_INVALID_TICKET,"Position #"+o.slaveTicket+" not found");
      out.ticket=o.slaveTicket;
      return false;
     }
   CbSymbolSpec s;
   CbReadSymbolSpec(OrderSymbol(),s);
   double open=OrderOpenPrice();
   int err=CbP4ModifyTicket(ticket,open,CbP4NormalizePrice(s,o.sl),CbP4NormalizePrice(s,o.tp),p);
   if(err!=0)
     {
      CbP4FailFromError(out,err,"Modify #"+IntegerToString(ticket));
      out.ticket=IntegerToString(ticket);
      return false;
     }
   CbP4Succeed(out,"modified",ticket,s);
   return true;
  }

//+------------------------------------------------------------------+
//| PENDING_MODIFY: price, SL and TP of the copied pending order;     |
//| when it has triggered into a position, that position's SL/TP.     |
//+------------------------------------------------------------------+
bool CbP4PendingModify(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   int ticket=(o.slaveTicket!="") ? CbP4ResolveOpen((int)StringToInteger(o.slaveTicket)) : 0;
   if(ticket<=0)
      ticket=CbP4Target(o,magic,false);
   if(ticket<=0 || !OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES))
     {
      CbP4Fail(out,"error",ERR_INVALID_TICKET,"Pending order #"+o.slaveTicket+" not found");
      out.ticket=o.slaveTicket;
      return false;
     }
   CbSymbolSpec s;
   CbReadSymbolSpec(OrderSymbol(),s);
   int type=OrderType();
   double price=OrderOpenPrice();
   if(type!=OP_BUY && type!=OP_SELL && o.price>0.0)
      price=CbP4NormalizePrice(s,o.price);
   int err=CbP4ModifyTicket(ticket,price,CbP4NormalizePrice(s,o.sl),CbP4NormalizePrice(s,o.tp),p);
   if(err!=0)
     {
      CbP4FailFromError(out,err,"Modify pending #"+IntegerToString(ticket));
      out.ticket=IntegerToString(ticket);
      return false;
     }
   CbP4Succeed(out,"modified",ticket,s);
   out.fillPrice=price;
   return true;
  }

//+------------------------------------------------------------------+
//| OrderDelete of pending order `ticket` with retries. A ticket no   |
//| longer pending counts as cancelled.                               |
//+------------------------------------------------------------------+
bool CbP4DeleteTicket(const int ticket,const CbProfile &p,CbOutcome &out)
  {
   out.ticket=(ticket>0) ? IntegerToString(ticket) : "";
   out.status="cancelled";
   out.fillTime=(double)TimeGMT();
   if(ticket<=0 || !OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES) || (long)OrderCloseTime()!=0)
      return true;
   int type=OrderType();
   if(type==OP_BUY || type==OP_SELL)
     {
      CbP4Fail(out,"error",ERR_INVALID_TICKET,"Pending order #"+IntegerToString(ticket)+" has already triggered into a position");
      return false;
     }
   string symbol=OrderSymbol();
   int retries=CbP4Retries(p);
   int err=0;
   for(int attempt=0; ; attempt++)
     {
      if(!CbP4WaitContext())
        {
         err=ERR_TRADE_CONTEXT_BUSY;
         break;
        }
      RefreshRates();
      ResetLastError();
      bool ok=OrderDelete(ticket,clrNONE);
      err=GetLastError();
      if(ok || !OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES) || (long)OrderCloseTime()!=0)
        {
         out.point=MarketInfo(symbol,MODE_POINT);
         out.digits=(int)MarketInfo(symbol,MODE_DIGITS);
         return true;
        }
      if((!CbP4IsRetryable(err) && err!=ERR_TRADE_TIMEOUT) || attempt>=retries || !CbP4Backoff(p,attempt))
         break;
     }
   CbP4FailFromError(out,err,"Cancel #"+IntegerToString(ticket));
   out.ticket=IntegerToString(ticket);
   return false;
  }

//+------------------------------------------------------------------+
//| Fills a "closed" outcome for a position no longer open, with the  |
//| close price and profit from history when known.                   |
//+------------------------------------------------------------------+
void CbP4AlreadyClosed(const string ticket,CbOutcome &out)
  {
   out.status="closed";
   out.ticket=ticket;
   out.fillTime=(double)TimeGMT();
   double price=0.0;
   datetime time=0;
   double profit=0.0;
   string reason="";
   if(ticket!="" && CbClosedInfo(ticket,price,time,profit,reason) && reason!="cancelled")
     {
      out.fillPrice=price;
      out.profit=profit;
      out.hasProfit=(reason!="filled" || profit!=0.0);
     }
  }

//+------------------------------------------------------------------+
//| OrderClose of `volume` lots of open market order `ticket` with    |
//| retries and fresh Bid/Ask. Fills the outcome: closed volume,      |
//| close price, OrderProfit of the closed part and, after a partial  |
//| close, remainingTicket (the new ticket of the rest).              |
//+------------------------------------------------------------------+
bool CbP4CloseTicket(const int ticket,const double volume,const int slippage,const CbProfile &p,CbOutcome &out)
  {
   if(!OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES) || (long)OrderCloseTime()!=0)
     {
      CbP4AlreadyClosed(IntegerToString(ticket),out);
      return true;
     }
   string symbol=OrderSymbol();
   bool isBuy=(OrderType()==OP_BUY);
   CbSymbolSpec s;
   CbReadSymbolSpec(symbol,s);
   int retries=CbP4Retries(p);
   int err=0;
   bool ok=false;
   for(int attempt=0; ; attempt++)
     {
      if(!CbP4WaitContext())
        {
         err=ERR_TRADE_CONTEXT_BUSY;
         break;
        }
      double price=CbP4Quote(symbol,!isBuy);
      ResetLastError();
      ok=OrderClose(ticket,volume,NormalizeDouble(price,s.digits),slippage,clrNONE);
      err=GetLastError();
      if(ok)
         break;
      if(OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES) && (long)OrderCloseTime()!=0)
        {
         ok=true;                        // closed meanwhile (timeout answer, SL/TP)
         break;
        }
      if(!CbP4IsRetryable(err) && err!=ERR_TRADE_TIMEOUT)
         break;
      if(attempt>=retries || !CbP4Backoff(p,attempt))
         break;
     }
   if(!ok)
     {
      CbP4FailFromError(out,err,"Close #"+IntegerToString(ticket));
      out.ticket=IntegerToString(ticket);
      return false;
     }
   CbP4Succeed(out,"closed",ticket,s);
   out.volume=volume;
   if(OrderSelect(ticket,SELECT_BY_TICKET,MODE_HISTORY))
     {
      out.fillPrice=OrderClosePrice();
      out.volume=OrderLots();
      out.profit=OrderProfit();
      out.hasProfit=true;
     }
   int rest=CbP4Remainder(ticket);
   if(rest>0)
      out.remainingTicket=IntegerToString(rest);
   return true;
  }

//+------------------------------------------------------------------+
//| CLOSE: min(order volume, position volume) normalised down to the  |
//| lot step; 0, more than open, or a remainder below the minimum     |
//| closes everything. A position already gone reports closed; a copy |
//| that is still an untriggered pending order is deleted (closed).   |
//+------------------------------------------------------------------+
bool CbP4Close(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   int ticket=CbP4Target(o,magic,true);
   if(ticket<=0 || !OrderSelect(ticket,SELECT_BY_TICKET,MODE_TRADES))
     {
      CbP4AlreadyClosed(o.slaveTicket,out);
      return true;
     }
   if(OrderType()!=OP_BUY && OrderType()!=OP_SELL)
     {
      //--- the copy is still a pending order here (it triggered on the master only):
      //--- deleting it leaves this slave holding nothing, as the master
      if(!CbP4DeleteTicket(ticket,p,out))
         return false;
      out.status="closed";
      return true;
     }
   double held=OrderLots();
   CbSymbolSpec s;
   if(!CbReadSymbolSpec(OrderSymbol(),s))
     {
      CbP4Fail(out,"error",ERR_UNKNOWN_SYMBOL,"Unknown symbol "+OrderSymbol());
      return false;
     }
   double volume=held;
   if(o.volume>0.0 && o.volume<held)
     {
      volume=CbP4FloorVolume(s,o.volume);
      if(volume<s.volumeMin-1e-9)
        {
         CbP4Fail(out,"rejected",ERR_INVALID_TRADE_VOLUME,"Close volume "+o.volumeStr+" is below the symbol minimum "+DoubleToString(s.volumeMin,CbP4StepDigits(s.volumeStep)));
         out.ticket=IntegerToString(ticket);
         return false;
        }
      if(held-volume<s.volumeMin-1e-9)
         volume=held;                    // the remainder could not stay open
     }
   return CbP4CloseTicket(ticket,volume,CbP4Deviation(o,p),p,out);
  }

//+------------------------------------------------------------------+
//| CLOSE_ALL: closes every position and deletes every pending order  |
//| carrying the EA's magic (partial-close remainders included).      |
//| closed when all are gone, else error naming how many remain.      |
//+------------------------------------------------------------------+
bool CbP4CloseAll(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   int tickets[];
   int n=0;
   int total=OrdersTotal();
   for(int i=0; i<total; i++)
     {
      if(!OrderSelect(i,SELECT_BY_POS,MODE_TRADES) || OrderMagicNumber()!=magic)
         continue;
      ArrayResize(tickets,n+1);
      tickets[n]=OrderTicket();
      n++;
     }
   int failed=0;
   int firstCode=0;
   string firstError="";
   double closedVolume=0.0;
   double profit=0.0;
   bool haveProfit=false;
   int slippage=CbP4Deviation(o,p);
   for(int i=0; i<n; i++)
     {
      if(!OrderSelect(tickets[i],SELECT_BY_TICKET,MODE_TRADES) || (long)OrderCloseTime()!=0)
         continue;
      CbOutcome one;
      bool ok=false;
      int type=OrderType();
      if(type==OP_BUY || type==OP_SELL)
         ok=CbP4CloseTicket(tickets[i],OrderLots(),slippage,p,one);
      else
         ok=CbP4DeleteTicket(tickets[i],p,one);
      if(!ok)
        {
         failed++;
         if(firstError=="") { firstError=one.errorMessage; firstCode=one.errorCode; }
         continue;
        }
      closedVolume+=one.volume;
      if(one.hasProfit)
        {
         profit+=one.profit;
         haveProfit=true;
        }
     }
   out.fillTime=(double)TimeGMT();
   if(failed>0)
     {
      CbP4Fail(out,"error",firstCode,"Close all: "+IntegerToString(failed)+" of "+IntegerToString(n)+" left open. "+firstError);
      return false;
     }
   out.status="closed";
   out.volume=closedVolume;
   out.profit=profit;
   out.hasProfit=haveProfit;
   return true;
  }

//+------------------------------------------------------------------+
//| Checks symbol, trade mode and volume of an OPEN / PENDING_OPEN;   |
//| `volume` = order volume normalised down to the lot step, clamped  |
//| to the maximum. false with a rejected/error outcome.              |
//+------------------------------------------------------------------+
bool CbP4PrepareOpen(const CbOrder &o,CbSymbolSpec &s,double &volume,CbOutcome &out)
  {
   if(o.side!="BUY" && o.side!="SELL")
     {
      CbP4Fail(out,"error",CB_P4_ERR_EA,"Invalid side '"+o.side+"'");
      return false;
     }
   if(!CbReadSymbolSpec(o.symbol,s))
     {
      CbP4Fail(out,"rejected",ERR_UNKNOWN_SYMBOL,"Unknown symbol "+o.symbol);
      return false;
     }
   if(s.tradeMode=="disabled" || s.tradeMode=="close_only" ||
      (s.tradeMode=="long_only" && o.side=="SELL") || (s.tradeMode=="short_only" && o.side=="BUY"))
     {
      CbP4Fail(out,"rejected",ERR_TRADE_DISABLED,"Trading "+o.side+" is not allowed on "+s.symbol+" (trade mode "+s.tradeMode+")");
      return false;
     }
   volume=CbP4FloorVolume(s,o.volume);
   if(s.volumeMax>0.0 && volume>s.volumeMax)
      volume=CbP4FloorVolume(s,s.volumeMax);
   if(volume<=0.0 || volume<s.volumeMin-1e-9)
     {
      CbP4Fail(out,"rejected",ERR_INVALID_TRADE_VOLUME,"Volume "+o.volumeStr+" is below the minimum "+DoubleToString(s.volumeMin,CbP4StepDigits(s.volumeStep))+" of "+s.symbol+" (step "+DoubleToString(s.volumeStep,CbP4StepDigits(s.volumeStep))+")");
      return false;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Carries out one slave order and fills the outcome (status,        |
//| ticket, remainingTicket after a partial close, fillPrice, volume  |
//| in lots, fillTime in UTC seconds, point, profit, errorCode /      |
//| errorMessage). Returns true when the order took effect (filled,   |
//| placed, modified, closed, cancelled), false for rejected / error. |
//| Blocks at most the retry budget (a few seconds).                  |
//+------------------------------------------------------------------+
bool CbExecute(const CbOrder &o,const CbProfile &p,int magic,CbOutcome &out)
  {
   g_cbP4SleptMs=0;
   out.status="";
   out.ticket="";
   out.remainingTicket="";
   out.fillPrice=0.0;
   out.volume=0.0;
   out.fillTime=0.0;
   out.point=0.0;
   out.digits=-1;
   out.profit=0.0;
   out.hasProfit=false;
   out.errorCode=0;
   out.errorMessage="";
   string why="";
   if(!CbP4TradeAllowed(why))
     {
      CbP4Fail(out,"rejected",ERR_TRADE_NOT_ALLOWED,why);
      return false;
     }
   if(!IsConnected())
     {
      CbP4Fail(out,"rejected",ERR_NO_CONNECTION,CbP4ErrorText(ERR_NO_CONNECTION));
      return false;
     }
   long mg=(long)magic;
   if(o.action=="OPEN" || o.action=="PENDING_OPEN")
     {
      CbSymbolSpec s;
      double volume=0.0;
      if(!CbP4PrepareOpen(o,s,volume,out))
         return false;
      if(o.action=="OPEN")
         return CbP4Open(o,p,mg,s,volume,out);
      return CbP4PendingOpen(o,p,mg,s,volume,out);
     }
   if(o.action=="MODIFY")
      return CbP4Modify(o,p,mg,out);
   if(o.action=="PENDING_MODIFY")
      return CbP4PendingModify(o,p,mg,out);
   if(o.action=="CLOSE")
      return CbP4Close(o,p,mg,out);
   if(o.action=="PENDING_CANCEL")
     {
      int ticket=(o.slaveTicket!="") ? (int)StringToInteger(o.slaveTicket) : CbP4Target(o,mg,false);
      return CbP4DeleteTicket(ticket,p,out);
     }
   if(o.action=="CLOSE_ALL")
      return CbP4CloseAll(o,p,mg,out);
   CbP4Fail(out,"error",CB_P4_ERR_EA,"Unknown action '"+o.action+"'");
   return false;
  }

#endif // COPYBRIDGE_PLATFORM4_MQH
