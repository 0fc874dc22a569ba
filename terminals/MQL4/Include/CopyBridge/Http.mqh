//+------------------------------------------------------------------+
//| CopyBridge/Http.mqh                                      [shared] |
//| Signed WebRequest client of the bridge (docs/bridge-protocol.md   |
//| §2–3): headers content-type, x-api-key, x-ts (TimeGMT(), integer  |
//| seconds), x-signature = lowercase hex HMAC-SHA256(secret,         |
//| METHOD + PATH + TS + BODY); the body is sent as its UTF-8 bytes   |
//| WITHOUT a terminating zero, the same bytes on every retry.        |
//| Retries (exponential backoff): transport errors (-1), 5xx, 429 and|
//| 503 (Retry-After honoured), 409 in_flight, 409 replayed (re-signed|
//| with a newer time). No retry: 400, 401, 403, 404, 409 conflict /  |
//| login_mismatch, 413, 415, 422. Fatal (the EA stops): 401          |
//| key_disabled / bad_signature / unknown_key, 409 login_mismatch.   |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_HTTP_MQH
#define COPYBRIDGE_HTTP_MQH

#include "Hmac.mqh"
#include "Json.mqh"
#include "Status.mqh"

//--- true when every character of s is a hex digit
bool CbHexOnly(const string s)
  {
   for(int i=0; i<StringLen(s); i++)
     {
      ushort c=StringGetCharacter(s,i);
      bool ok=(c>='0' && c<='9') || (c>='a' && c<='f') || (c>='A' && c<='F');
      if(!ok)
         return(false);
     }
   return(true);
  }

//+------------------------------------------------------------------+
//| Signed HTTP client of the bridge.                                |
//+------------------------------------------------------------------+
class CbBridge
  {
private:
   string            m_url;          // base URL without trailing '/'
   string            m_origin;       // scheme://host[:port]
   string            m_apiKey;
   string            m_secret;
   int               m_timeoutMs;    // per attempt
   int               m_maxAttempts;
   bool              m_fatal;
   string            m_lastError;    // "" after a 2xx
   string            m_lastCode;     // "code" of the last error answer
   int               m_lastStatus;
   long              m_lastTs;       // x-ts of the last request sent
   bool              m_urlHintShown;

   //--- "retry-after" seconds of a header block, -1 when absent
   int               RetryAfterSec(const string headers) const
     {
      string h=headers;
      StringToLower(h);
      int at=StringFind(h,"retry-after:");
      if(at<0)
         return(-1);
      at+=12;
      int n=StringLen(h);
      while(at<n && StringGetCharacter(h,at)==' ')
         at++;
      int end=at;
      while(end<n && StringGetCharacter(h,end)>='0' && StringGetCharacter(h,end)<='9')
         end++;
      if(end==at)
         return(-1);
      return((int)StringToInteger(StringSubstr(h,at,end-at)));
     }
   //--- waits until TimeGMT() is past `ts` (at most ~1.1 s), so a re-signed request differs
   void              WaitNextSecond(const long ts) const
     {
      for(int i=0; i<12 && (long)TimeGMT()<=ts; i++)
         Sleep(100);
     }
   //--- remembers an error answer (status, code, text) and decides fatality
   void              NoteError(const int status,const string answer)
     {
      m_lastStatus=status;
      m_lastCode="";
      string text="";
      CbJson j;
      if(StringLen(answer)>0 && j.Parse(answer))
        {
         m_lastCode=j.Str("code","");
         text=j.Str("error","");
        }
      if(text=="")
         text=answer;
      if(StringLen(text)>200)
         text=StringSubstr(text,0,200);
      m_lastError="HTTP "+IntegerToString(status);
      if(m_lastCode!="")
         m_lastError=m_lastError+" "+m_lastCode;
      if(text!="")
         m_lastError=m_lastError+": "+text;
      if(status==401 && (m_lastCode=="key_disabled" || m_lastCode=="bad_signature" || m_lastCode=="unknown_key" || m_lastCode=="missing_headers"))
         m_fatal=true;
      if(status==409 && m_lastCode=="login_mismatch")
         m_fatal=true;
      if(status==401 && m_lastCode=="timestamp_out_of_window")
         m_lastError=m_lastError+" (check the terminal's clock)";
     }

public:
                     CbBridge(void)
     {
      m_url="";
      m_origin="";
      m_apiKey="";
      m_secret="";
      m_timeoutMs=5000;
      m_maxAttempts=3;
      m_fatal=false;
      m_lastError="";
      m_lastCode="";
      m_lastStatus=0;
      m_lastTs=0;
      m_urlHintShown=false;
     }
   //--- checks the inputs and keeps them. url: http(s)://host[:port][/base];
   //--- apiKey: cbk_…; secret: 64 hex chars; timeoutMs: per attempt (ms, ≥ 1000);
   //--- verbosity: 0 errors, 1 info, 2 debug. False with LastError() naming the input.
   bool              Init(const string url,const string apiKey,const string secret,const int timeoutMs,const int verbosity)
     {
      CbSetVerbosity(verbosity);
      m_fatal=false;
      string u=url;
      while(StringLen(u)>0 && (StringGetCharacter(u,StringLen(u)-1)=='/' || StringGetCharacter(u,StringLen(u)-1)==' '))
         u=StringSubstr(u,0,StringLen(u)-1);
      while(StringLen(u)>0 && StringGetCharacter(u,0)==' ')
         u=StringSubstr(u,1);
      string lower=u;
      StringToLower(lower);
      int schemeLen=0;
      if(StringSubstr(lower,0,7)=="http://")
         schemeLen=7;
      else
         if(StringSubstr(lower,0,8)=="https://")
            schemeLen=8;
      if(u=="" || schemeLen==0 || StringLen(u)<=schemeLen || StringFind(u," ")>=0)
        {
         m_lastError="Server URL (InpServerUrl) must start with http:// or https:// and name a host, e.g. https://copy.example.com";
         m_fatal=true;
         return(false);
        }
      int slash=StringFind(u,"/",schemeLen);
      m_origin=u;
      if(slash>0)
         m_origin=StringSubstr(u,0,slash);
      if(StringLen(m_origin)<=schemeLen || StringGetCharacter(m_origin,schemeLen)==':')
        {
         m_lastError="Server URL (InpServerUrl) has no host: "+u;
         m_fatal=true;
         return(false);
        }
      string key=apiKey;
      if(StringSubstr(key,0,4)!="cbk_" || StringLen(key)<8 || StringFind(key," ")>=0)
        {
         m_lastError="API key (InpApiKey) must be the key id shown on the dashboard, starting with cbk_";
         m_fatal=true;
         return(false);
        }
      if(StringLen(secret)!=64 || !CbHexOnly(secret))
        {
         m_lastError="API secret (InpApiSecret) must be the 64 hex characters shown once when the key was created";
         m_fatal=true;
         return(false);
        }
      m_url=u;
      m_apiKey=key;
      m_secret=secret;
      m_timeoutMs=timeoutMs;
      if(m_timeoutMs<1000)
         m_timeoutMs=1000;
      m_lastError="";
      return(true);
     }
   //--- scheme://host[:port] of the server URL
   string            Origin(void) const { return(m_origin); }
   //--- number of attempts Post makes (1..11, default 3)
   void              SetMaxAttempts(const int n) { m_maxAttempts=(int)MathMax(1,MathMin(11,n)); }
   //--- WebRequest timeout of one attempt of Post, ms
   int               TimeoutMs(void) const { return(m_timeoutMs); }
   //--- attempts Post makes (1 + retries)
   int               MaxAttempts(void) const { return(m_maxAttempts); }
   //--- takes the organisation's network settings of a heartbeat answer (docs/bridge-protocol.md
   //--- §4.1 "network"): network.timeoutMs per attempt (1000..60000 ms) and network.retryAttempts
   //--- after the first attempt (0..10). Absent: unchanged (the EA's input until the bridge says).
   //--- Logs and returns true when something changed.
   bool              ApplyNetwork(CbJson &j)
     {
      if(j.Type("network")!=CB_JSON_OBJECT)
         return(false);
      int timeoutMs=(int)MathMax(1000,MathMin(60000,j.Int("network.timeoutMs",m_timeoutMs)));
      int attempts=(int)MathMax(1,MathMin(11,j.Int("network.retryAttempts",m_maxAttempts-1)+1));
      if(timeoutMs==m_timeoutMs && attempts==m_maxAttempts)
         return(false);
      m_timeoutMs=timeoutMs;
      m_maxAttempts=attempts;
      CbLogInfo("network settings from the bridge: timeout "+IntegerToString(timeoutMs)+" ms, "+IntegerToString(attempts-1)+" retries");
      return(true);
     }
   //--- true after an error no retry can fix (bad key/secret, wrong terminal): stop the EA
   bool              Fatal(void) const { return(m_fatal); }
   //--- text of the last failure ("" after a success)
   string            LastError(void) const { return(m_lastError); }
   //--- "code" of the last error answer ("" when none)
   string            LastCode(void) const { return(m_lastCode); }
   //--- HTTP status of the last answer (-1 transport error, 0 none yet)
   int               LastStatus(void) const { return(m_lastStatus); }
   //--- x-signature of one request: hex HMAC-SHA256(secret, method + path + ts + body)
   string            Sign(const string method,const string path,const string ts,const string body) const
     {
      return(CbHmacSha256Hex(m_secret,method+path+ts+body));
     }
   //--- POST with the default timeout and attempts; see PostEx
   int               Post(const string path,const string body,string &answer)
     {
      return(PostEx(path,body,answer,m_timeoutMs,m_maxAttempts));
     }
   //--- POSTs body (JSON text) to path (e.g. "/v1/master/heartbeat"), signed, with up to
   //--- `attempts` tries of `timeoutMs` ms each; the whole call, backoff pauses included, stays
   //--- within timeoutMs × attempts (a retry that would not fit is not started). Returns the HTTP status
   //--- of the last answer, or -1 when the transport failed every time; answer = body text.
   int               PostEx(const string path,const string body,string &answer,const int timeoutMs,const int attempts)
     {
      answer="";
      if(m_url=="")
        {
         m_lastError="bridge not initialised";
         return(-1);
        }
      uchar bytes[];
      int n=CbUtf8(body,bytes);
      char data[];
      ArrayResize(data,n);
      for(int i=0; i<n; i++)
         data[i]=(char)bytes[i];
      int maxAttempts=attempts;
      if(maxAttempts<1)
         maxAttempts=1;
      int backoffMs=250;
      int status=-1;
      uint started=GetTickCount();
      long budgetMs=(long)timeoutMs*maxAttempts;
      for(int attempt=1; attempt<=maxAttempts; attempt++)
        {
         long ts=(long)TimeGMT();
         if(ts<=m_lastTs && m_lastCode=="replayed")
           {
            WaitNextSecond(m_lastTs);
            ts=(long)TimeGMT();
           }
         m_lastTs=ts;
         string tsText=IntegerToString(ts);
         string headers="content-type: application/json\r\nx-api-key: "+m_apiKey+"\r\nx-ts: "+tsText+
                        "\r\nx-signature: "+Sign("POST",path,tsText,body)+"\r\n";
         char result[];
         string resultHeaders="";
         ResetLastError();
         status=WebRequest("POST",m_url+path,headers,timeoutMs,data,result,resultHeaders);
         int retryAfterMs=-1;
         if(status==-1)
           {
            int err=GetLastError();
            m_lastStatus=-1;
            m_lastCode="";
            if(err==4014 || err==4060 || err==5200)
              {
               m_lastError="WebRequest not allowed for "+m_origin+" (error "+IntegerToString(err)+")";
               if(!m_urlHintShown || g_cbVerbosity>=CB_LOG_DEBUG)
                  Print("Add "+m_origin+" under Tools -> Options -> Expert Advisors -> \"Allow WebRequest for listed URL\"");
               m_urlHintShown=true;
               return(-1);
              }
            m_lastError="cannot reach "+m_origin+" (error "+IntegerToString(err)+")";
            CbLogDebug("POST "+path+" attempt "+IntegerToString(attempt)+": "+m_lastError);
           }
         else
           {
            uchar ures[];
            int rn=ArraySize(result);
            ArrayResize(ures,rn);
            for(int i=0; i<rn; i++)
               ures[i]=(uchar)result[i];
            answer=CbFromUtf8(ures);
            if(status>=200 && status<300)
              {
               m_lastStatus=status;
               m_lastError="";
               m_lastCode="";
               CbLogDebug("POST "+path+" -> "+IntegerToString(status));
               return(status);
              }
            NoteError(status,answer);
            CbLogDebug("POST "+path+" attempt "+IntegerToString(attempt)+": "+m_lastError);
            bool retry=(status>=500 || status==429 || (status==409 && (m_lastCode=="in_flight" || m_lastCode=="replayed")));
            if(!retry)
               return(status);
            if(status==429 || status==503)   // 503 overloaded: the server says when to come back
              {
               int ra=RetryAfterSec(resultHeaders);
               if(ra>=0)
                  retryAfterMs=ra*1000;
              }
           }
         if(attempt>=maxAttempts || IsStopped())
            break;
         int waitMs=backoffMs;
         if(retryAfterMs>waitMs)
            waitMs=retryAfterMs;
         if(waitMs>5000)
            waitMs=5000;
         long elapsed=(long)(GetTickCount()-started);
         if(elapsed+waitMs+timeoutMs>budgetMs)
            break;
         Sleep(waitMs);
         backoffMs*=2;
         if(m_lastCode=="replayed")
            WaitNextSecond(m_lastTs);
        }
      return(status);
     }
  };

#endif // COPYBRIDGE_HTTP_MQH
