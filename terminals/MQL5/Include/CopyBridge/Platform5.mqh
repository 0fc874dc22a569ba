//+------------------------------------------------------------------+
//| CopyBridge/Platform5.mqh                               [MT5 only] |
//| The platform layer of the MetaTrader 5 EAs: reads the book, the   |
//| account and symbol specifications, explains how a position left  |
//| the book, and executes one slave order (CbExecute) with volume    |
//| and price normalisation, filling-mode negotiation for every       |
//| request (closes included), retries on transient retcodes and a   |
//| book re-read after an ambiguous timeout (never opens twice).      |
//| Interface: terminals/harness/DESIGN.md §7. Facts: mql-facts §3-4. |
//| Units: volumes in lots, prices as quoted, distances in points,    |
//| money in account currency, times in seconds.                      |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_PLATFORM5_MQH
#define COPYBRIDGE_PLATFORM5_MQH

#include "Types.mqh"

#define CB_P5_MAX_RETRIES       10     // upper bound on profile.retryMax per request
#define CB_P5_MAX_SLEEP_MS      2000   // longest single backoff pause
#define CB_P5_SLEEP_BUDGET_MS   8000   // all backoff pauses of one CbExecute together
#define CB_P5_TIMEOUT_RECHECKS  2      // re-sends after 10012 once the book shows nothing happened
#define CB_P5_DEFAULT_DEVIATION 20     // points, when neither the order nor the profile names one

int  g_cbP5SleptMs = 0;                // backoff spent by the running CbExecute, ms

//+------------------------------------------------------------------+
//| Platform name sent to the bridge and shown in logs.               |
//+------------------------------------------------------------------+
string CbPlatformName()
  {
   return "MT5";
  }

//+------------------------------------------------------------------+
//| Short English text of a trade server return code (10004…10031).  |
//+------------------------------------------------------------------+
string CbP5RetcodeText(const uint code)
  {
   if(code==10004) return "Requote";
   if(code==10006) return "Request rejected";
   if(code==10007) return "Request canceled by trader";
   if(code==10008) return "Order placed";
   if(code==10009) return "Request completed";
   if(code==10010) return "Only part of the request was completed";
   if(code==10011) return "Request processing error";
   if(code==10012) return "Request canceled by timeout";
   if(code==10013) return "Invalid request";
   if(code==10014) return "Invalid volume in the request";
   if(code==10015) return "Invalid price in the request";
   if(code==10016) return "Invalid stops in the request";
   if(code==10017) return "Trade is disabled";
   if(code==10018) return "Market is closed";
   if(code==10019) return "There is not enough money to complete the request";
   if(code==10020) return "Prices changed";
   if(code==10021) return "There are no quotes to process the request";
   if(code==10022) return "Invalid order expiration date in the request";
   if(code==10023) return "Order state changed";
   if(code==10024) return "Too frequent requests";
   if(code==10025) return "No changes in request";
   if(code==10026) return "Autotrading disabled by server";
   if(code==10027) return "Autotrading disabled by client terminal";
   if(code==10028) return "Request locked for processing";
   if(code==10029) return "Order or position frozen";
   if(code==10030) return "Invalid order filling type";
   if(code==10031) return "No connection with the trade server";
   if(code==10032) return "Operation is allowed only for live accounts";
   if(code==10033) return "The number of pending orders has reached the limit";
   if(code==10034) return "The volume of orders and positions for the symbol has reached the limit";
   if(code==10035) return "Invalid or prohibited order type";
   if(code==10036) return "Position with the specified identifier has already been closed";
   if(code==10038) return "Close volume exceeds the current position volume";
   if(code==10039) return "A close order already exists for this position";
   if(code==10040) return "The number of open positions has reached the limit";
   if(code==10041) return "The pending order activation request is rejected";
   if(code==10042) return "Only long positions are allowed";
   if(code==10043) return "Only short positions are allowed";
   if(code==10044) return "Only position closing is allowed";
   if(code==10045) return "Position closing is allowed only by FIFO rule";
   return "Trade server error " + IntegerToString((long)code);
  }

//+------------------------------------------------------------------+
//| true for retcodes worth a retry with a fresh quote.               |
//+------------------------------------------------------------------+
bool CbP5IsRetryable(const uint code)
  {
   return (code==TRADE_RETCODE_REQUOTE || code==TRADE_RETCODE_PRICE_CHANGED ||
           code==TRADE_RETCODE_PRICE_OFF || code==TRADE_RETCODE_TOO_MANY_REQUESTS ||
           code==TRADE_RETCODE_CONNECTION);
  }

//+------------------------------------------------------------------+
//| Fills the outcome of a refused order.                             |
//| status: "rejected" (broker/market refused) or "error" (EA side).  |
//+------------------------------------------------------------------+
void CbP5Fail(CbOutcome &out, const string status, const int code, const string message)
  {
   out.status=status;
   out.errorCode=code;
   out.errorMessage=message;
   out.fillTime=(double)TimeGMT();
  }

//+------------------------------------------------------------------+
//| Trading permissions of terminal, program and account.             |
//| Returns false with the reason in `why` when the EA may not trade. |
//+------------------------------------------------------------------+
bool CbP5TradeAllowed(string &why)
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
//| Decimal places of a volume step (0.01 → 2, 0.1 → 1, 1 → 0).       |
//+------------------------------------------------------------------+
int CbP5StepDigits(const double step)
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
//| Rounds a volume DOWN to the symbol's step (lots); 0 when ≤ 0.     |
//| Does not clamp: callers compare with volumeMin / volumeMax.       |
//+------------------------------------------------------------------+
double CbP5FloorVolume(const CbSymbolSpec &s, const double volume)
  {
   if(volume<=0.0)
      return 0.0;
   double step=s.volumeStep;
   if(step<=0.0)
      step=0.01;
   double steps=MathFloor(volume/step+1e-7);
   return NormalizeDouble(steps*step,CbP5StepDigits(step));
  }

//+------------------------------------------------------------------+
//| Rounds a price to the symbol's tick size and digits; 0 stays 0.   |
//+------------------------------------------------------------------+
double CbP5NormalizePrice(const CbSymbolSpec &s, const double price)
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
string CbP5TradeModeWord(const long mode)
  {
   if(mode==SYMBOL_TRADE_MODE_DISABLED)  return "disabled";
   if(mode==SYMBOL_TRADE_MODE_LONGONLY)  return "long_only";
   if(mode==SYMBOL_TRADE_MODE_SHORTONLY) return "short_only";
   if(mode==SYMBOL_TRADE_MODE_CLOSEONLY) return "close_only";
   return "full";
  }

//+------------------------------------------------------------------+
//| Trading specification of a symbol (selects it in Market Watch).   |
//| Returns false when the broker has no such symbol.                 |
//+------------------------------------------------------------------+
bool CbReadSymbolSpec(const string symbol,CbSymbolSpec &s)
  {
   if(symbol=="")
      return false;
   ResetLastError();
   if(!SymbolSelect(symbol,true))
      return false;
   s.symbol=symbol;
   s.digits=(int)SymbolInfoInteger(symbol,SYMBOL_DIGITS);
   s.point=SymbolInfoDouble(symbol,SYMBOL_POINT);
   s.volumeMin=SymbolInfoDouble(symbol,SYMBOL_VOLUME_MIN);
   s.volumeStep=SymbolInfoDouble(symbol,SYMBOL_VOLUME_STEP);
   s.volumeMax=SymbolInfoDouble(symbol,SYMBOL_VOLUME_MAX);
   s.contractSize=SymbolInfoDouble(symbol,SYMBOL_TRADE_CONTRACT_SIZE);
   s.tickSize=SymbolInfoDouble(symbol,SYMBOL_TRADE_TICK_SIZE);
   s.tickValue=SymbolInfoDouble(symbol,SYMBOL_TRADE_TICK_VALUE);
   s.tradeMode=CbP5TradeModeWord(SymbolInfoInteger(symbol,SYMBOL_TRADE_MODE));
   s.stopsLevel=(int)SymbolInfoInteger(symbol,SYMBOL_TRADE_STOPS_LEVEL);
   if(s.point<=0.0)
      s.point=MathPow(10.0,-s.digits);
   if(s.tickSize<=0.0)
      s.tickSize=s.point;
   return true;
  }

//+------------------------------------------------------------------+
//| Account state for heartbeats. false when not logged in.           |
//| brokerUtcOffsetSec = TimeTradeServer() − TimeGMT(), rounded to    |
//| the nearest 15 minutes.                                           |
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
   long mode=AccountInfoInteger(ACCOUNT_MARGIN_MODE);
   if(mode==ACCOUNT_MARGIN_MODE_RETAIL_NETTING)
      a.marginMode="netting";
   else
      if(mode==ACCOUNT_MARGIN_MODE_EXCHANGE)
         a.marginMode="exchange";
      else
         a.marginMode="hedging";
   long diff=(long)TimeTradeServer()-(long)TimeGMT();
   a.brokerUtcOffsetSec=(int)(MathRound((double)diff/900.0)*900.0);
   return true;
  }

//+------------------------------------------------------------------+
//| true on a hedging account (several positions per symbol).         |
//+------------------------------------------------------------------+
bool CbP5IsHedging()
  {
   return AccountInfoInteger(ACCOUNT_MARGIN_MODE)==ACCOUNT_MARGIN_MODE_RETAIL_HEDGING;
  }

//+------------------------------------------------------------------+
//| Side and protocol order type of an MT5 order type.                |
//| false for market / close-by orders (not pending).                 |
//+------------------------------------------------------------------+
bool CbP5PendingKind(const long type,string &side,string &orderType)
  {
   if(type==ORDER_TYPE_BUY_LIMIT)       { side="BUY";  orderType="LIMIT";      return true; }
   if(type==ORDER_TYPE_SELL_LIMIT)      { side="SELL"; orderType="LIMIT";      return true; }
   if(type==ORDER_TYPE_BUY_STOP)        { side="BUY";  orderType="STOP";       return true; }
   if(type==ORDER_TYPE_SELL_STOP)       { side="SELL"; orderType="STOP";       return true; }
   if(type==ORDER_TYPE_BUY_STOP_LIMIT)  { side="BUY";  orderType="STOP_LIMIT"; return true; }
   if(type==ORDER_TYPE_SELL_STOP_LIMIT) { side="SELL"; orderType="STOP_LIMIT"; return true; }
   return false;
  }

//+------------------------------------------------------------------+
//| Every open position and pending order of the account.             |
//| Returns false when a ticket could not be read (the caller must    |
//| not treat a missing entry as closed then).                        |
//+------------------------------------------------------------------+
bool CbReadBook(CbBookEntry &positions[],CbBookEntry &orders[])
  {
   ArrayResize(positions,0);
   ArrayResize(orders,0);
   int total=PositionsTotal();
   int n=0;
   for(int i=0; i<total; i++)
     {
      ulong ticket=PositionGetTicket(i);
      if(ticket==0)
         return false;
      ArrayResize(positions,n+1);
      positions[n].ticket=(string)ticket;
      positions[n].symbol=PositionGetString(POSITION_SYMBOL);
      positions[n].side=(PositionGetInteger(POSITION_TYPE)==POSITION_TYPE_BUY) ? "BUY" : "SELL";
      positions[n].orderType="MARKET";
      positions[n].volume=PositionGetDouble(POSITION_VOLUME);
      positions[n].price=PositionGetDouble(POSITION_PRICE_OPEN);
      positions[n].stopLimitPrice=0.0;
      positions[n].sl=PositionGetDouble(POSITION_SL);
      positions[n].tp=PositionGetDouble(POSITION_TP);
      positions[n].magic=PositionGetInteger(POSITION_MAGIC);
      positions[n].comment=PositionGetString(POSITION_COMMENT);
      positions[n].time=(datetime)PositionGetInteger(POSITION_TIME);
      positions[n].digits=(int)SymbolInfoInteger(positions[n].symbol,SYMBOL_DIGITS);
      positions[n].currentPrice=PositionGetDouble(POSITION_PRICE_CURRENT);   // bid (BUY) / ask (SELL)
      n++;
     }
   total=OrdersTotal();
   n=0;
   for(int i=0; i<total; i++)
     {
      ulong ticket=OrderGetTicket(i);
      if(ticket==0)
         return false;
      string side="";
      string orderType="";
      if(!CbP5PendingKind(OrderGetInteger(ORDER_TYPE),side,orderType))
         continue;                      // a market order in flight: its position follows
      ArrayResize(orders,n+1);
      orders[n].ticket=(string)ticket;
      orders[n].symbol=OrderGetString(ORDER_SYMBOL);
      orders[n].side=side;
      orders[n].orderType=orderType;
      orders[n].volume=OrderGetDouble(ORDER_VOLUME_CURRENT);
      orders[n].price=OrderGetDouble(ORDER_PRICE_OPEN);
      orders[n].stopLimitPrice=(orderType=="STOP_LIMIT") ? OrderGetDouble(ORDER_PRICE_STOPLIMIT) : 0.0;
      orders[n].sl=OrderGetDouble(ORDER_SL);
      orders[n].tp=OrderGetDouble(ORDER_TP);
      orders[n].magic=OrderGetInteger(ORDER_MAGIC);
      orders[n].comment=OrderGetString(ORDER_COMMENT);
      orders[n].time=(datetime)OrderGetInteger(ORDER_TIME_SETUP);
      orders[n].digits=(int)SymbolInfoInteger(orders[n].symbol,SYMBOL_DIGITS);
      n++;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Reason word of a closing deal's DEAL_REASON.                      |
//+------------------------------------------------------------------+
string CbP5DealReasonWord(const long reason)
  {
   if(reason==DEAL_REASON_SL)     return "sl";
   if(reason==DEAL_REASON_TP)     return "tp";
   if(reason==DEAL_REASON_SO)     return "so";
   if(reason==DEAL_REASON_EXPERT) return "expert";
   return "manual";
  }

//+------------------------------------------------------------------+
//| Money result of a selected deal: profit + swap + commission.      |
//+------------------------------------------------------------------+
double CbP5DealMoney(const ulong deal)
  {
   return HistoryDealGetDouble(deal,DEAL_PROFIT)+HistoryDealGetDouble(deal,DEAL_SWAP)+
          HistoryDealGetDouble(deal,DEAL_COMMISSION);
  }

//+------------------------------------------------------------------+
//| Last closing deal (DEAL_ENTRY_OUT / OUT_BY) of position `id`;     |
//| 0 when the position has none (still open, or unknown).            |
//| Leaves the position's history selected (HistorySelectByPosition). |
//+------------------------------------------------------------------+
ulong CbP5LastCloseDeal(const long id)
  {
   if(!HistorySelectByPosition(id))
      return 0;
   int deals=HistoryDealsTotal();
   ulong last=0;
   long lastTime=0;
   for(int i=0; i<deals; i++)
     {
      ulong deal=HistoryDealGetTicket(i);
      if(deal==0)
         continue;
      long entry=HistoryDealGetInteger(deal,DEAL_ENTRY);
      if(entry!=DEAL_ENTRY_OUT && entry!=DEAL_ENTRY_OUT_BY)
         continue;
      long t=HistoryDealGetInteger(deal,DEAL_TIME);
      if(last==0 || t>=lastTime)
        {
         last=deal;
         lastTime=t;
        }
     }
   return last;
  }

//+------------------------------------------------------------------+
//| Selects history order `ticket`, loading the last 31 days of       |
//| history when the terminal's cache does not hold it yet.           |
//+------------------------------------------------------------------+
bool CbP5SelectHistoryOrder(const ulong ticket)
  {
   if(HistoryOrderSelect(ticket))
      return true;
   long now=(long)TimeTradeServer();
   if(!HistorySelect((datetime)(now-2678400),(datetime)(now+86400)))
      return false;
   return HistoryOrderSelect(ticket);
  }

//+------------------------------------------------------------------+
//| How a position or pending order that left the book ended.         |
//| A ticket that was a pending order: reason "cancelled" (deleted,   |
//| expired, rejected) or "filled" (it triggered); price/time of the  |
//| order, or of the closing deal when the position it opened has     |
//| closed since. A position: the last closing deal gives price, time |
//| (server time), profit (profit+swap+commission, account currency)  |
//| and reason sl|tp|so|expert|manual. false when history has neither |
//| (or the position is still open).                                  |
//+------------------------------------------------------------------+
bool CbClosedInfo(const string ticket,double &price,datetime &time,double &profit,string &reason)
  {
   price=0.0;
   time=0;
   profit=0.0;
   reason="";
   long id=StringToInteger(ticket);
   if(id<=0)
      return false;
   ulong t=(ulong)id;
   bool open=PositionSelectByTicket(t);
   ulong last=open ? 0 : CbP5LastCloseDeal(id);
   //--- a pending order (in hedging its position, if it triggered, has the same ticket)
   if(CbP5SelectHistoryOrder(t))
     {
      string side="";
      string orderType="";
      if(CbP5PendingKind(HistoryOrderGetInteger(t,ORDER_TYPE),side,orderType))
        {
         long state=HistoryOrderGetInteger(t,ORDER_STATE);
         bool filled=(state==ORDER_STATE_FILLED || state==ORDER_STATE_PARTIAL);
         reason=filled ? "filled" : "cancelled";
         price=HistoryOrderGetDouble(t,ORDER_PRICE_OPEN);
         time=(datetime)HistoryOrderGetInteger(t,ORDER_TIME_DONE);
         if(filled && last!=0 && HistoryDealSelect(last))
           {
            price=HistoryDealGetDouble(last,DEAL_PRICE);
            time=(datetime)HistoryDealGetInteger(last,DEAL_TIME);
            profit=CbP5DealMoney(last);
           }
         return true;
        }
     }
   if(last==0 || !HistoryDealSelect(last))
      return false;
   price=HistoryDealGetDouble(last,DEAL_PRICE);
   time=(datetime)HistoryDealGetInteger(last,DEAL_TIME);
   profit=CbP5DealMoney(last);
   reason=CbP5DealReasonWord(HistoryDealGetInteger(last,DEAL_REASON));
   return true;
  }

//+------------------------------------------------------------------+
//| Sets every field of a trade request to its neutral value.         |
//+------------------------------------------------------------------+
void CbP5ResetRequest(MqlTradeRequest &r)
  {
   r.action=TRADE_ACTION_DEAL;
   r.magic=0;
   r.order=0;
   r.symbol="";
   r.volume=0.0;
   r.price=0.0;
   r.stoplimit=0.0;
   r.sl=0.0;
   r.tp=0.0;
   r.deviation=0;
   r.type=ORDER_TYPE_BUY;
   r.type_filling=ORDER_FILLING_FOK;
   r.type_time=ORDER_TIME_GTC;
   r.expiration=0;
   r.comment="";
   r.position=0;
   r.position_by=0;
  }

//+------------------------------------------------------------------+
//| Clears a trade result before OrderSend.                           |
//+------------------------------------------------------------------+
void CbP5ResetResult(MqlTradeResult &r)
  {
   r.retcode=0;
   r.deal=0;
   r.order=0;
   r.volume=0.0;
   r.price=0.0;
   r.bid=0.0;
   r.ask=0.0;
   r.comment="";
   r.request_id=0;
   r.retcode_external=0;
  }

//+------------------------------------------------------------------+
//| Filling modes to try for a market request, best first.            |
//| 0 = FOK, 1 = IOC, 2 = RETURN (mql-facts §3 recipe): FOK and IOC   |
//| when SYMBOL_FILLING_MODE allows them, RETURN on exchange          |
//| execution; the others follow so a 10030 can rotate to them.       |
//+------------------------------------------------------------------+
void CbP5FillingOrder(const string symbol,int &modes[])
  {
   ArrayResize(modes,0);
   long mask=SymbolInfoInteger(symbol,SYMBOL_FILLING_MODE);
   long exe=SymbolInfoInteger(symbol,SYMBOL_TRADE_EXEMODE);
   bool fok=((mask & SYMBOL_FILLING_FOK)!=0);
   bool ioc=((mask & SYMBOL_FILLING_IOC)!=0);
   bool ret=(exe==SYMBOL_TRADE_EXECUTION_EXCHANGE || (!fok && !ioc));
   int n=0;
   if(fok) { ArrayResize(modes,n+1); modes[n]=0; n++; }
   if(ioc) { ArrayResize(modes,n+1); modes[n]=1; n++; }
   if(ret) { ArrayResize(modes,n+1); modes[n]=2; n++; }
   if(!fok) { ArrayResize(modes,n+1); modes[n]=0; n++; }
   if(!ioc) { ArrayResize(modes,n+1); modes[n]=1; n++; }
   if(!ret) { ArrayResize(modes,n+1); modes[n]=2; n++; }
  }

//+------------------------------------------------------------------+
//| Applies filling mode index 0/1/2 (FOK/IOC/RETURN) to a request.   |
//+------------------------------------------------------------------+
void CbP5SetFilling(MqlTradeRequest &r,const int mode)
  {
   if(mode==0)
      r.type_filling=ORDER_FILLING_FOK;
   else
      if(mode==1)
         r.type_filling=ORDER_FILLING_IOC;
      else
         r.type_filling=ORDER_FILLING_RETURN;
  }

//+------------------------------------------------------------------+
//| Waits before a retry: the profile's backoff doubled per attempt,  |
//| each pause ≤ CB_P5_MAX_SLEEP_MS and all of them together within  |
//| CB_P5_SLEEP_BUDGET_MS. false when the budget is spent.            |
//+------------------------------------------------------------------+
bool CbP5Backoff(const CbProfile &p,const int attempt)
  {
   int wait=p.retryBackoffMs;
   if(wait<0)
      wait=0;
   for(int i=0; i<attempt && wait<CB_P5_MAX_SLEEP_MS; i++)
      wait*=2;
   if(wait>CB_P5_MAX_SLEEP_MS)
      wait=CB_P5_MAX_SLEEP_MS;
   if(g_cbP5SleptMs+wait>CB_P5_SLEEP_BUDGET_MS)
      return false;
   if(wait>0)
      Sleep(wait);
   g_cbP5SleptMs+=wait;
   return !IsStopped();
  }

//+------------------------------------------------------------------+
//| Sends one trade request with the profile's retries.               |
//| Market deals (TRADE_ACTION_DEAL) take a fresh bid/ask and the     |
//| filling mode of CbP5FillingOrder on every attempt and rotate      |
//| through the modes on 10030 (each once, then the first again);     |
//| other actions keep their price and use                            |
//| ORDER_FILLING_RETURN. Retries on 10004/10020/10021/10024/10031.   |
//| 10012 (timeout) on a deal or placement returns at once: the       |
//| caller re-reads the book before any resend (never opens twice).   |
//| Returns true on DONE / DONE_PARTIAL / PLACED (and NO_CHANGES when |
//| `noChangeOk`); res.retcode holds the last answer, `lastError` the |
//| GetLastError() read right after OrderSend.                        |
//+------------------------------------------------------------------+
bool CbP5Send(MqlTradeRequest &req,MqlTradeResult &res,const CbProfile &p,const bool noChangeOk,int &lastError)
  {
   int retries=p.retryMax;
   if(retries<0)
      retries=0;
   if(retries>CB_P5_MAX_RETRIES)
      retries=CB_P5_MAX_RETRIES;
   bool market=(req.action==TRADE_ACTION_DEAL);
   int modes[];
   int modeIndex=0;
   int rotations=0;
   if(market)
      CbP5FillingOrder(req.symbol,modes);
   else
      if(req.action==TRADE_ACTION_PENDING)
         req.type_filling=ORDER_FILLING_RETURN;
   int attempt=0;
   lastError=0;
   while(true)
     {
      if(market)
        {
         CbP5SetFilling(req,modes[modeIndex]);
         double quote=(req.type==ORDER_TYPE_BUY) ? SymbolInfoDouble(req.symbol,SYMBOL_ASK)
                                                  : SymbolInfoDouble(req.symbol,SYMBOL_BID);
         if(quote>0.0)
            req.price=NormalizeDouble(quote,(int)SymbolInfoInteger(req.symbol,SYMBOL_DIGITS));
        }
      CbP5ResetResult(res);
      ResetLastError();
      bool sent=OrderSend(req,res);
      lastError=GetLastError();
      if(!sent && res.retcode==0)
         return false;                  // refused by the terminal's basic checks: lastError says why
      uint rc=res.retcode;
      if(rc==TRADE_RETCODE_DONE || rc==TRADE_RETCODE_DONE_PARTIAL || rc==TRADE_RETCODE_PLACED)
         return true;
      if(noChangeOk && rc==TRADE_RETCODE_NO_CHANGES)
         return true;
      if(rc==TRADE_RETCODE_INVALID_FILL && market && rotations<ArraySize(modes))
        {
         modeIndex=(modeIndex+1)%ArraySize(modes);
         rotations++;                   // rotating the filling mode is not a retry; the
         continue;                      // first (advertised) mode gets a second chance last
        }
      //--- a timed-out deal or placement may have happened: the caller reads the book first;
      //--- SL/TP, modify and remove requests are idempotent and simply retried
      bool idempotent=(req.action==TRADE_ACTION_SLTP || req.action==TRADE_ACTION_MODIFY || req.action==TRADE_ACTION_REMOVE);
      if(rc==TRADE_RETCODE_TIMEOUT && !idempotent)
         return false;
      if(!(CbP5IsRetryable(rc) || (rc==TRADE_RETCODE_TIMEOUT && idempotent)) || attempt>=retries)
         return false;
      if(!CbP5Backoff(p,attempt))
         return false;
      attempt++;
     }
   return false;
  }

//+------------------------------------------------------------------+
//| Turns a failed send into the outcome: broker retcodes → rejected  |
//| with the retcode and its text; no retcode → error with the        |
//| GetLastError() code.                                              |
//+------------------------------------------------------------------+
void CbP5FailFromResult(CbOutcome &out,const MqlTradeResult &res,const int lastError,const string what)
  {
   if(res.retcode!=0)
     {
      string text=CbP5RetcodeText(res.retcode);
      if(res.comment!="" && res.comment!=text)
         text=text+" ("+res.comment+")";
      CbP5Fail(out,"rejected",(int)res.retcode,what+": "+text);
      return;
     }
   CbP5Fail(out,"error",lastError,what+": OrderSend failed, error "+IntegerToString(lastError));
  }

//+------------------------------------------------------------------+
//| Comment put on every copied order: the bridge's cb:<ticket>[/leg] |
//| (CbCopyCommentOf, Types.mqh), else cb:<masterTicket>.             |
//+------------------------------------------------------------------+
string CbP5CopyComment(const CbOrder &o)
  {
   return CbCopyCommentOf(o);
  }

//+------------------------------------------------------------------+
//| Slippage allowed on market requests, points.                      |
//+------------------------------------------------------------------+
ulong CbP5Deviation(const CbOrder &o,const CbProfile &p)
  {
   if(o.maxDeviationPts>=0)
      return (ulong)o.maxDeviationPts;
   if(p.maxDeviationPts>=0)
      return (ulong)p.maxDeviationPts;
   return (ulong)CB_P5_DEFAULT_DEVIATION;
  }

//+------------------------------------------------------------------+
//| Ticket of an open position with this magic, symbol and side whose |
//| comment is `comment` ("" = any comment); "" when none.            |
//+------------------------------------------------------------------+
string CbP5FindPosition(const string symbol,const string side,const long magic,const string comment)
  {
   int total=PositionsTotal();
   for(int i=0; i<total; i++)
     {
      ulong ticket=PositionGetTicket(i);
      if(ticket==0)
         continue;
      if(PositionGetInteger(POSITION_MAGIC)!=magic)
         continue;
      if(symbol!="" && PositionGetString(POSITION_SYMBOL)!=symbol)
         continue;
      string s=(PositionGetInteger(POSITION_TYPE)==POSITION_TYPE_BUY) ? "BUY" : "SELL";
      if(side!="" && s!=side)
         continue;
      if(comment!="" && PositionGetString(POSITION_COMMENT)!=comment)
         continue;
      return (string)ticket;
     }
   return "";
  }

//+------------------------------------------------------------------+
//| Ticket of a pending order with this magic and comment; "" = none. |
//+------------------------------------------------------------------+
string CbP5FindOrder(const long magic,const string comment)
  {
   int total=OrdersTotal();
   for(int i=0; i<total; i++)
     {
      ulong ticket=OrderGetTicket(i);
      if(ticket==0)
         continue;
      if(OrderGetInteger(ORDER_MAGIC)!=magic || OrderGetString(ORDER_COMMENT)!=comment)
         continue;
      return (string)ticket;
     }
   return "";
  }

//+------------------------------------------------------------------+
//| Lots held in positions of this magic, symbol and side.            |
//+------------------------------------------------------------------+
double CbP5HeldVolume(const string symbol,const string side,const long magic)
  {
   double sum=0.0;
   int total=PositionsTotal();
   for(int i=0; i<total; i++)
     {
      ulong ticket=PositionGetTicket(i);
      if(ticket==0 || PositionGetInteger(POSITION_MAGIC)!=magic || PositionGetString(POSITION_SYMBOL)!=symbol)
         continue;
      string s=(PositionGetInteger(POSITION_TYPE)==POSITION_TYPE_BUY) ? "BUY" : "SELL";
      if(s==side)
         sum+=PositionGetDouble(POSITION_VOLUME);
     }
   return sum;
  }

//+------------------------------------------------------------------+
//| Fills outcome fields every successful report carries.             |
//+------------------------------------------------------------------+
void CbP5Succeed(CbOutcome &out,const string status,const string ticket,const CbSymbolSpec &s)
  {
   out.status=status;
   out.ticket=ticket;
   out.point=s.point;
   out.digits=s.digits;
   out.fillTime=(double)TimeGMT();
   out.errorCode=0;
   out.errorMessage="";
  }

//+------------------------------------------------------------------+
//| Position ticket created or changed by a market deal: the deal's   |
//| DEAL_POSITION_ID, else result.order (hedging), else the position  |
//| of this magic on the symbol (netting).                            |
//+------------------------------------------------------------------+
string CbP5DealPosition(const MqlTradeResult &res,const string symbol,const string side,const long magic,const string comment)
  {
   if(res.deal>0 && HistoryDealSelect(res.deal))
     {
      long id=HistoryDealGetInteger(res.deal,DEAL_POSITION_ID);
      if(id>0)
         return IntegerToString(id);
     }
   if(res.order>0 && PositionSelectByTicket(res.order))
      return (string)res.order;
   string t=CbP5FindPosition(symbol,side,magic,comment);
   if(t=="")
      t=CbP5FindPosition(symbol,side,magic,"");
   if(t=="" && res.order>0)
      t=(string)res.order;
   return t;
  }

//+------------------------------------------------------------------+
//| Market open (OPEN, and PENDING_OPEN slipped to market).           |
//| A position already carrying this copy's comment is adopted, never |
//| opened twice; after a 10012 timeout the book decides.             |
//+------------------------------------------------------------------+
bool CbP5Open(const CbOrder &o,const CbProfile &p,const long magic,const CbSymbolSpec &s,const double volume,CbOutcome &out)
  {
   string comment=CbP5CopyComment(o);
   string existing=CbP5FindPosition(s.symbol,o.side,magic,comment);
   if(existing!="" && comment!="" && PositionSelectByTicket((ulong)StringToInteger(existing)))
     {
      CbP5Succeed(out,"filled",existing,s);
      out.fillPrice=PositionGetDouble(POSITION_PRICE_OPEN);
      out.volume=PositionGetDouble(POSITION_VOLUME);
      return true;
     }
   MqlTradeRequest req;
   MqlTradeResult res;
   CbP5ResetRequest(req);
   req.action=TRADE_ACTION_DEAL;
   req.symbol=s.symbol;
   req.volume=volume;
   req.type=(o.side=="BUY") ? ORDER_TYPE_BUY : ORDER_TYPE_SELL;
   req.sl=CbP5NormalizePrice(s,o.sl);
   req.tp=CbP5NormalizePrice(s,o.tp);
   req.deviation=CbP5Deviation(o,p);
   req.magic=(ulong)magic;
   req.comment=comment;
   double before=CbP5HeldVolume(s.symbol,o.side,magic);
   int lastError=0;
   for(int round=0; round<=CB_P5_TIMEOUT_RECHECKS; round++)
     {
      if(CbP5Send(req,res,p,false,lastError))
        {
         CbP5Succeed(out,"filled",CbP5DealPosition(res,s.symbol,o.side,magic,comment),s);
         out.fillPrice=(res.price>0.0) ? res.price : req.price;
         out.volume=(res.volume>0.0) ? res.volume : volume;
         return true;
        }
      if(res.retcode!=TRADE_RETCODE_TIMEOUT)
         break;
      Sleep(500);                        // let the terminal receive the late answer
      g_cbP5SleptMs+=500;
      double after=CbP5HeldVolume(s.symbol,o.side,magic);
      if(after>before+s.volumeStep*0.5)
        {
         string t=CbP5FindPosition(s.symbol,o.side,magic,comment);
         if(t=="")
            t=CbP5FindPosition(s.symbol,o.side,magic,"");
         CbP5Succeed(out,"filled",t,s);
         out.volume=NormalizeDouble(after-before,CbP5StepDigits(s.volumeStep));
         out.fillPrice=req.price;
         if(t!="" && PositionSelectByTicket((ulong)StringToInteger(t)) && CbP5IsHedging())
            out.fillPrice=PositionGetDouble(POSITION_PRICE_OPEN);
         return true;
        }
     }
   CbP5FailFromResult(out,res,lastError,"Open "+o.side+" "+s.symbol);
   return false;
  }

//+------------------------------------------------------------------+
//| true when a pending price has already been passed by the market.  |
//+------------------------------------------------------------------+
bool CbP5PendingPassed(const CbOrder &o,const double price,const string symbol)
  {
   double bid=SymbolInfoDouble(symbol,SYMBOL_BID);
   double ask=SymbolInfoDouble(symbol,SYMBOL_ASK);
   if(bid<=0.0 || ask<=0.0)
      return false;
   if(o.orderType=="LIMIT")
      return (o.side=="BUY") ? (price>=ask) : (price<=bid);
   return (o.side=="BUY") ? (price<=ask) : (price>=bid);
  }

//+------------------------------------------------------------------+
//| PENDING_OPEN: LIMIT / STOP / STOP_LIMIT with ORDER_FILLING_RETURN.|
//| A price already passed becomes a market order when the profile's  |
//| slipToMarket allows it (status filled), else is rejected.         |
//+------------------------------------------------------------------+
bool CbP5PendingOpen(const CbOrder &o,const CbProfile &p,const long magic,const CbSymbolSpec &s,const double volume,CbOutcome &out)
  {
   string comment=CbP5CopyComment(o);
   string existing=CbP5FindOrder(magic,comment);
   if(existing!="" && comment!="")
     {
      CbP5Succeed(out,"placed",existing,s);
      out.fillPrice=CbP5NormalizePrice(s,o.price);
      out.volume=volume;
      return true;
     }
   double price=CbP5NormalizePrice(s,o.price);
   if(price<=0.0)
     {
      CbP5Fail(out,"error",ERR_INVALID_PARAMETER,"Pending order without a price");
      return false;
     }
   if(o.orderType!="STOP_LIMIT" && CbP5PendingPassed(o,price,s.symbol))
     {
      if(p.slipToMarket)
         return CbP5Open(o,p,magic,s,volume,out);
      CbP5Fail(out,"rejected",(int)TRADE_RETCODE_INVALID_PRICE,"Pending price "+DoubleToString(price,s.digits)+" already passed by the market");
      return false;
     }
   MqlTradeRequest req;
   MqlTradeResult res;
   CbP5ResetRequest(req);
   req.action=TRADE_ACTION_PENDING;
   req.symbol=s.symbol;
   req.volume=volume;
   if(o.orderType=="LIMIT")
      req.type=(o.side=="BUY") ? ORDER_TYPE_BUY_LIMIT : ORDER_TYPE_SELL_LIMIT;
   else
      if(o.orderType=="STOP")
         req.type=(o.side=="BUY") ? ORDER_TYPE_BUY_STOP : ORDER_TYPE_SELL_STOP;
      else
         if(o.orderType=="STOP_LIMIT")
            req.type=(o.side=="BUY") ? ORDER_TYPE_BUY_STOP_LIMIT : ORDER_TYPE_SELL_STOP_LIMIT;
         else
           {
            CbP5Fail(out,"error",ERR_INVALID_PARAMETER,"Unknown pending order type '"+o.orderType+"'");
            return false;
           }
   req.price=price;
   if(o.orderType=="STOP_LIMIT")
      req.stoplimit=CbP5NormalizePrice(s,o.stopLimitPrice);
   req.sl=CbP5NormalizePrice(s,o.sl);
   req.tp=CbP5NormalizePrice(s,o.tp);
   req.type_filling=ORDER_FILLING_RETURN;
   req.type_time=ORDER_TIME_GTC;
   req.magic=(ulong)magic;
   req.comment=comment;
   int lastError=0;
   for(int round=0; round<=CB_P5_TIMEOUT_RECHECKS; round++)
     {
      if(CbP5Send(req,res,p,false,lastError))
        {
         CbP5Succeed(out,"placed",(string)res.order,s);
         out.fillPrice=price;
         out.volume=volume;
         return true;
        }
      if(res.retcode!=TRADE_RETCODE_TIMEOUT)
         break;
      Sleep(500);
      g_cbP5SleptMs+=500;
      string t=CbP5FindOrder(magic,comment);
      if(t!="")
        {
         CbP5Succeed(out,"placed",t,s);
         out.fillPrice=price;
         out.volume=volume;
         return true;
        }
     }
   CbP5FailFromResult(out,res,lastError,"Place "+o.side+" "+o.orderType+" "+s.symbol);
   return false;
  }

//+------------------------------------------------------------------+
//| Position ticket an order acts on: slaveTicket, else the position  |
//| carrying the copy comment cb:<masterTicket>. "" when none.        |
//+------------------------------------------------------------------+
string CbP5TargetPosition(const CbOrder &o,const long magic)
  {
   if(o.slaveTicket!="")
      return o.slaveTicket;
   string comment=CbP5CopyComment(o);
   if(comment=="")
      return "";
   return CbP5FindPosition("","",magic,comment);
  }

//+------------------------------------------------------------------+
//| Pending ticket an order acts on: slaveTicket, else the pending    |
//| order carrying the copy comment. "" when none.                    |
//+------------------------------------------------------------------+
string CbP5TargetOrder(const CbOrder &o,const long magic)
  {
   if(o.slaveTicket!="")
      return o.slaveTicket;
   string comment=CbP5CopyComment(o);
   if(comment=="")
      return "";
   return CbP5FindOrder(magic,comment);
  }

//+------------------------------------------------------------------+
//| true when pending order `ticket` is open (and selects it).        |
//+------------------------------------------------------------------+
bool CbP5OrderOpen(const ulong ticket)
  {
   if(ticket==0)
      return false;
   return OrderSelect(ticket);
  }

//+------------------------------------------------------------------+
//| SL/TP of an open position (TRADE_ACTION_SLTP with `position`).    |
//| Unchanged levels (10025) count as modified.                       |
//+------------------------------------------------------------------+
bool CbP5ModifyPosition(const ulong ticket,const double sl,const double tp,const CbProfile &p,const long magic,CbOutcome &out)
  {
   string symbol=PositionGetString(POSITION_SYMBOL);
   CbSymbolSpec s;
   if(!CbReadSymbolSpec(symbol,s))
     {
      CbP5Fail(out,"error",ERR_MARKET_UNKNOWN_SYMBOL,"Unknown symbol "+symbol);
      return false;
     }
   MqlTradeRequest req;
   MqlTradeResult res;
   CbP5ResetRequest(req);
   req.action=TRADE_ACTION_SLTP;
   req.symbol=symbol;
   req.position=ticket;
   req.sl=CbP5NormalizePrice(s,sl);
   req.tp=CbP5NormalizePrice(s,tp);
   req.magic=(ulong)magic;
   int lastError=0;
   if(!CbP5Send(req,res,p,true,lastError))
     {
      CbP5FailFromResult(out,res,lastError,"Modify #"+(string)ticket);
      return false;
     }
   CbP5Succeed(out,"modified",(string)ticket,s);
   return true;
  }

//+------------------------------------------------------------------+
//| MODIFY: new SL/TP on the copied position.                         |
//+------------------------------------------------------------------+
bool CbP5Modify(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   string target=CbP5TargetPosition(o,magic);
   ulong ticket=(ulong)StringToInteger(target);
   if(ticket==0 || !PositionSelectByTicket(ticket))
     {
      CbP5Fail(out,"error",ERR_TRADE_POSITION_NOT_FOUND,"Position #"+target+" not found");
      out.ticket=target;
      return false;
     }
   return CbP5ModifyPosition(ticket,o.sl,o.tp,p,magic,out);
  }

//+------------------------------------------------------------------+
//| PENDING_MODIFY: price, stop-limit price, SL and TP of the copied  |
//| pending order (TRADE_ACTION_MODIFY with `order`). When the order  |
//| has already triggered into a position, that position's SL/TP.     |
//+------------------------------------------------------------------+
bool CbP5PendingModify(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   string target=CbP5TargetOrder(o,magic);
   ulong ticket=(ulong)StringToInteger(target);
   if(!CbP5OrderOpen(ticket))
     {
      if(ticket>0 && PositionSelectByTicket(ticket))
         return CbP5ModifyPosition(ticket,o.sl,o.tp,p,magic,out);
      CbP5Fail(out,"error",ERR_TRADE_ORDER_NOT_FOUND,"Pending order #"+target+" not found");
      out.ticket=target;
      return false;
     }
   string symbol=OrderGetString(ORDER_SYMBOL);
   long type=OrderGetInteger(ORDER_TYPE);
   CbSymbolSpec s;
   if(!CbReadSymbolSpec(symbol,s))
     {
      CbP5Fail(out,"error",ERR_MARKET_UNKNOWN_SYMBOL,"Unknown symbol "+symbol);
      return false;
     }
   MqlTradeRequest req;
   MqlTradeResult res;
   CbP5ResetRequest(req);
   req.action=TRADE_ACTION_MODIFY;
   req.order=ticket;
   req.symbol=symbol;
   req.price=(o.price>0.0) ? CbP5NormalizePrice(s,o.price) : OrderGetDouble(ORDER_PRICE_OPEN);
   if(type==ORDER_TYPE_BUY_STOP_LIMIT || type==ORDER_TYPE_SELL_STOP_LIMIT)
      req.stoplimit=(o.stopLimitPrice>0.0) ? CbP5NormalizePrice(s,o.stopLimitPrice) : OrderGetDouble(ORDER_PRICE_STOPLIMIT);
   req.sl=CbP5NormalizePrice(s,o.sl);
   req.tp=CbP5NormalizePrice(s,o.tp);
   req.type_time=ORDER_TIME_GTC;
   req.type_filling=ORDER_FILLING_RETURN;
   req.magic=(ulong)magic;
   int lastError=0;
   if(!CbP5Send(req,res,p,true,lastError))
     {
      CbP5FailFromResult(out,res,lastError,"Modify pending #"+target);
      return false;
     }
   CbP5Succeed(out,"modified",target,s);
   out.fillPrice=req.price;
   return true;
  }

//+------------------------------------------------------------------+
//| Deletes pending order `ticket` (TRADE_ACTION_REMOVE).             |
//| An order already gone counts as cancelled.                        |
//+------------------------------------------------------------------+
bool CbP5RemoveOrder(const ulong ticket,const CbProfile &p,CbOutcome &out)
  {
   out.ticket=(string)ticket;
   if(!CbP5OrderOpen(ticket))
     {
      if(PositionSelectByTicket(ticket))
        {
         CbP5Fail(out,"error",ERR_TRADE_ORDER_NOT_FOUND,"Pending order #"+(string)ticket+" has already triggered into a position");
         return false;
        }
      out.status="cancelled";
      out.fillTime=(double)TimeGMT();
      return true;
     }
   string symbol=OrderGetString(ORDER_SYMBOL);
   MqlTradeRequest req;
   MqlTradeResult res;
   CbP5ResetRequest(req);
   req.action=TRADE_ACTION_REMOVE;
   req.order=ticket;
   req.symbol=symbol;
   int lastError=0;
   bool ok=CbP5Send(req,res,p,false,lastError);
   if(!ok && res.retcode==TRADE_RETCODE_TIMEOUT)
     {
      Sleep(500);
      g_cbP5SleptMs+=500;
      ok=!CbP5OrderOpen(ticket);
     }
   if(!ok && !CbP5OrderOpen(ticket) && PositionSelectByTicket(ticket))
     {
      CbP5Fail(out,"error",ERR_TRADE_ORDER_NOT_FOUND,"Pending order #"+(string)ticket+" has already triggered into a position");
      return false;
     }
   if(!ok && CbP5OrderOpen(ticket))
     {
      CbP5FailFromResult(out,res,lastError,"Cancel #"+(string)ticket);
      return false;
     }
   out.status="cancelled";
   out.fillTime=(double)TimeGMT();
   out.point=SymbolInfoDouble(symbol,SYMBOL_POINT);
   out.digits=(int)SymbolInfoInteger(symbol,SYMBOL_DIGITS);
   return true;
  }

//+------------------------------------------------------------------+
//| Fills a "closed" outcome for a position that is no longer open,   |
//| with the closing deal's price and profit when history has them.   |
//+------------------------------------------------------------------+
void CbP5AlreadyClosed(const string ticket,CbOutcome &out)
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
//| Closes `volume` lots of the selected position `ticket` with an    |
//| opposite deal naming `position`; chunks above SYMBOL_VOLUME_MAX.  |
//| Adds closed lots, volume-weighted price and profit to `out`.      |
//+------------------------------------------------------------------+
bool CbP5ClosePosition(const ulong ticket,const double volume,const CbProfile &p,const long magic,const ulong deviation,CbOutcome &out)
  {
   if(!PositionSelectByTicket(ticket))
     {
      CbP5AlreadyClosed((string)ticket,out);
      return true;
     }
   string symbol=PositionGetString(POSITION_SYMBOL);
   bool isBuy=(PositionGetInteger(POSITION_TYPE)==POSITION_TYPE_BUY);
   CbSymbolSpec s;
   if(!CbReadSymbolSpec(symbol,s))
     {
      CbP5Fail(out,"error",ERR_MARKET_UNKNOWN_SYMBOL,"Unknown symbol "+symbol);
      return false;
     }
   double remaining=volume;
   double closed=0.0;
   double priceSum=0.0;
   double profit=0.0;
   bool haveProfit=false;
   int lastError=0;
   MqlTradeRequest req;
   MqlTradeResult res;
   while(remaining>s.volumeStep*0.5)
     {
      double chunk=remaining;
      if(s.volumeMax>0.0 && chunk>s.volumeMax)
         chunk=CbP5FloorVolume(s,s.volumeMax);
      double held=0.0;
      if(PositionSelectByTicket(ticket))
         held=PositionGetDouble(POSITION_VOLUME);
      else
         break;                          // gone meanwhile (SL/TP): nothing left to close
      if(chunk>held)
         chunk=held;
      CbP5ResetRequest(req);
      req.action=TRADE_ACTION_DEAL;
      req.symbol=symbol;
      req.position=ticket;
      req.volume=chunk;
      req.type=isBuy ? ORDER_TYPE_SELL : ORDER_TYPE_BUY;
      req.deviation=deviation;
      req.magic=(ulong)magic;
      bool ok=false;
      for(int round=0; round<=CB_P5_TIMEOUT_RECHECKS; round++)
        {
         ok=CbP5Send(req,res,p,false,lastError);
         if(ok || res.retcode!=TRADE_RETCODE_TIMEOUT)
            break;
         Sleep(500);
         g_cbP5SleptMs+=500;
         double now=PositionSelectByTicket(ticket) ? PositionGetDouble(POSITION_VOLUME) : 0.0;
         if(now<held-s.volumeStep*0.5)
           {
            ok=true;                     // the timed-out close went through
            res.volume=held-now;
            res.price=req.price;
            res.deal=0;
            break;
           }
        }
      if(!ok && (res.retcode==TRADE_RETCODE_POSITION_CLOSED || !PositionSelectByTicket(ticket)))
        {
         if(closed<=0.0)
           {
            CbP5AlreadyClosed((string)ticket,out);
            return true;                 // closed at the broker meanwhile (SL/TP, by hand)
           }
         break;
        }
      if(!ok)
        {
         if(closed>0.0)
            break;                       // report what was closed
         CbP5FailFromResult(out,res,lastError,"Close #"+(string)ticket);
         return false;
        }
      double done=(res.volume>0.0) ? res.volume : chunk;
      double px=(res.price>0.0) ? res.price : req.price;
      closed+=done;
      priceSum+=px*done;
      //--- the deal may not be in the terminal's history cache yet: load the position's
      if(res.deal>0 && (HistoryDealSelect(res.deal) ||
         (HistorySelectByPosition((long)ticket) && HistoryDealSelect(res.deal))))
        {
         profit+=CbP5DealMoney(res.deal);
         haveProfit=true;
        }
      remaining-=done;
      if(done<chunk-s.volumeStep*0.5)
         break;                          // partial fill: report it, the bridge sees the volume
     }
   CbP5Succeed(out,"closed",(string)ticket,s);
   out.volume=NormalizeDouble(closed,CbP5StepDigits(s.volumeStep));
   if(closed>0.0)
      out.fillPrice=NormalizeDouble(priceSum/closed,s.digits);
   out.profit=profit;
   out.hasProfit=haveProfit;
   return true;
  }

//+------------------------------------------------------------------+
//| CLOSE: min(order volume, position volume) normalised down to the  |
//| step; 0, more than open or a remainder below the minimum closes   |
//| everything. A position already gone reports closed; a copy that  |
//| is still an untriggered pending order is deleted (closed).        |
//+------------------------------------------------------------------+
bool CbP5Close(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   string target=CbP5TargetPosition(o,magic);
   ulong ticket=(ulong)StringToInteger(target);
   if(ticket>0 && !PositionSelectByTicket(ticket) && CbP5OrderOpen(ticket))
     {
      //--- the copy is still a pending order here (it triggered on the master only):
      //--- deleting it leaves this slave holding nothing, as the master
      if(!CbP5RemoveOrder(ticket,p,out))
         return false;
      out.status="closed";
      return true;
     }
   if(ticket==0 || !PositionSelectByTicket(ticket))
     {
      CbP5AlreadyClosed(target,out);
      return true;
     }
   string symbol=PositionGetString(POSITION_SYMBOL);
   double held=PositionGetDouble(POSITION_VOLUME);
   CbSymbolSpec s;
   if(!CbReadSymbolSpec(symbol,s))
     {
      CbP5Fail(out,"error",ERR_MARKET_UNKNOWN_SYMBOL,"Unknown symbol "+symbol);
      return false;
     }
   double volume=held;
   if(o.volume>0.0 && o.volume<held)
     {
      volume=CbP5FloorVolume(s,o.volume);
      if(volume<s.volumeMin-1e-9)
        {
         CbP5Fail(out,"rejected",(int)TRADE_RETCODE_INVALID_VOLUME,"Close volume "+o.volumeStr+" is below the symbol minimum "+DoubleToString(s.volumeMin,CbP5StepDigits(s.volumeStep)));
         out.ticket=target;
         return false;
        }
      if(held-volume<s.volumeMin-1e-9)
         volume=held;                    // the remainder could not stay open
     }
   return CbP5ClosePosition(ticket,volume,p,magic,CbP5Deviation(o,p),out);
  }

//+------------------------------------------------------------------+
//| CLOSE_ALL: closes every position and deletes every pending order  |
//| carrying the EA's magic. status closed when all are gone, else    |
//| error naming how many remain.                                     |
//+------------------------------------------------------------------+
bool CbP5CloseAll(const CbOrder &o,const CbProfile &p,const long magic,CbOutcome &out)
  {
   string tickets[];
   int n=0;
   int total=PositionsTotal();
   for(int i=0; i<total; i++)
     {
      ulong t=PositionGetTicket(i);
      if(t==0 || PositionGetInteger(POSITION_MAGIC)!=magic)
         continue;
      ArrayResize(tickets,n+1);
      tickets[n]=(string)t;
      n++;
     }
   string pending[];
   int m=0;
   total=OrdersTotal();
   for(int i=0; i<total; i++)
     {
      ulong t=OrderGetTicket(i);
      if(t==0 || OrderGetInteger(ORDER_MAGIC)!=magic)
         continue;
      ArrayResize(pending,m+1);
      pending[m]=(string)t;
      m++;
     }
   int failed=0;
   string firstError="";
   int firstCode=0;
   double closedVolume=0.0;
   double profit=0.0;
   bool haveProfit=false;
   ulong deviation=CbP5Deviation(o,p);
   for(int i=0; i<m; i++)
     {
      CbOutcome one;
      if(!CbP5RemoveOrder((ulong)StringToInteger(pending[i]),p,one))
        {
         failed++;
         if(firstError=="") { firstError=one.errorMessage; firstCode=one.errorCode; }
        }
     }
   for(int i=0; i<n; i++)
     {
      ulong t=(ulong)StringToInteger(tickets[i]);
      double held=PositionSelectByTicket(t) ? PositionGetDouble(POSITION_VOLUME) : 0.0;
      CbOutcome one;
      if(!CbP5ClosePosition(t,held,p,magic,deviation,one))
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
      if(PositionSelectByTicket(t))
        {
         failed++;                       // partially filled close: the rest is still open
         if(firstError=="") { firstError="Position #"+tickets[i]+" still open after close"; firstCode=ERR_INVALID_PARAMETER; }
        }
     }
   out.fillTime=(double)TimeGMT();
   if(failed>0)
     {
      CbP5Fail(out,"error",firstCode,"Close all: "+IntegerToString(failed)+" of "+IntegerToString(n+m)+" left open. "+firstError);
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
//| sets `volume` to the order volume normalised down to the step and |
//| clamped to the maximum. false with a rejected/error outcome.      |
//+------------------------------------------------------------------+
bool CbP5PrepareOpen(const CbOrder &o,CbSymbolSpec &s,double &volume,CbOutcome &out)
  {
   if(o.side!="BUY" && o.side!="SELL")
     {
      CbP5Fail(out,"error",ERR_INVALID_PARAMETER,"Invalid side '"+o.side+"'");
      return false;
     }
   if(!CbReadSymbolSpec(o.symbol,s))
     {
      CbP5Fail(out,"rejected",ERR_MARKET_UNKNOWN_SYMBOL,"Unknown symbol "+o.symbol);
      return false;
     }
   if(s.tradeMode=="disabled" || s.tradeMode=="close_only" ||
      (s.tradeMode=="long_only" && o.side=="SELL") || (s.tradeMode=="short_only" && o.side=="BUY"))
     {
      CbP5Fail(out,"rejected",(int)TRADE_RETCODE_TRADE_DISABLED,"Trading "+o.side+" is not allowed on "+s.symbol+" (trade mode "+s.tradeMode+")");
      return false;
     }
   volume=CbP5FloorVolume(s,o.volume);
   if(s.volumeMax>0.0 && volume>s.volumeMax)
      volume=CbP5FloorVolume(s,s.volumeMax);
   if(volume<=0.0 || volume<s.volumeMin-1e-9)
     {
      CbP5Fail(out,"rejected",(int)TRADE_RETCODE_INVALID_VOLUME,"Volume "+o.volumeStr+" is below the minimum "+DoubleToString(s.volumeMin,CbP5StepDigits(s.volumeStep))+" of "+s.symbol+" (step "+DoubleToString(s.volumeStep,CbP5StepDigits(s.volumeStep))+")");
      return false;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Carries out one slave order and fills the outcome (status,        |
//| ticket, fillPrice, volume in lots, fillTime in UTC seconds,       |
//| point, profit, errorCode / errorMessage).                         |
//| Returns true when the order took effect (filled, placed,          |
//| modified, closed, cancelled), false for rejected / error.         |
//| Blocks at most the retry budget (a few seconds).                  |
//+------------------------------------------------------------------+
bool CbExecute(const CbOrder &o,const CbProfile &p,int magic,CbOutcome &out)
  {
   g_cbP5SleptMs=0;
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
   if(!CbP5TradeAllowed(why))
     {
      CbP5Fail(out,"rejected",(int)TRADE_RETCODE_CLIENT_DISABLES_AT,why);
      return false;
     }
   long mg=(long)magic;
   if(o.action=="OPEN" || o.action=="PENDING_OPEN")
     {
      CbSymbolSpec s;
      double volume=0.0;
      if(!CbP5PrepareOpen(o,s,volume,out))
         return false;
      if(o.action=="OPEN")
         return CbP5Open(o,p,mg,s,volume,out);
      return CbP5PendingOpen(o,p,mg,s,volume,out);
     }
   if(o.action=="MODIFY")
      return CbP5Modify(o,p,mg,out);
   if(o.action=="PENDING_MODIFY")
      return CbP5PendingModify(o,p,mg,out);
   if(o.action=="CLOSE")
      return CbP5Close(o,p,mg,out);
   if(o.action=="PENDING_CANCEL")
     {
      string target=CbP5TargetOrder(o,mg);
      ulong ticket=(ulong)StringToInteger(target);
      if(ticket==0)
        {
         out.status="cancelled";
         out.ticket=target;
         out.fillTime=(double)TimeGMT();
         return true;
        }
      return CbP5RemoveOrder(ticket,p,out);
     }
   if(o.action=="CLOSE_ALL")
      return CbP5CloseAll(o,p,mg,out);
   CbP5Fail(out,"error",ERR_INVALID_PARAMETER,"Unknown action '"+o.action+"'");
   return false;
  }

#endif // COPYBRIDGE_PLATFORM5_MQH
