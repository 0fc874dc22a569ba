//+------------------------------------------------------------------+
//| CopyBridge/Hmac.mqh                                      [shared] |
//| SHA-256 through CryptEncode(CRYPT_HASH_SHA256), HMAC-SHA256 per   |
//| RFC 2104 (64-byte block, longer keys hashed first), UTF-8 helpers |
//| and lowercase hex. Used to sign every bridge request              |
//| (docs/bridge-protocol.md §2).                                     |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_HMAC_MQH
#define COPYBRIDGE_HMAC_MQH

//+------------------------------------------------------------------+
//| UTF-8 bytes of a string WITHOUT the terminating zero that        |
//| StringToCharArray appends. Returns the number of bytes.          |
//+------------------------------------------------------------------+
int CbUtf8(const string s,uchar &out[])
  {
   ArrayResize(out,0);
   if(StringLen(s)==0)
      return(0);
   int n=StringToCharArray(s,out,0,-1,CP_UTF8);
   if(n<0)
      n=0;
   if(n>0 && out[n-1]==0)
      n--;
   ArrayResize(out,n);
   return(n);
  }

//+------------------------------------------------------------------+
//| Text of UTF-8 bytes (no terminating zero needed).                |
//+------------------------------------------------------------------+
string CbFromUtf8(const uchar &bytes[])
  {
   if(ArraySize(bytes)==0)
      return("");
   return(CharArrayToString(bytes,0,ArraySize(bytes),CP_UTF8));
  }

//+------------------------------------------------------------------+
//| SHA-256 digest (32 bytes) of data. False when CryptEncode fails. |
//+------------------------------------------------------------------+
bool CbSha256(const uchar &data[],uchar &digest[])
  {
   uchar nokey[];
   ArrayResize(nokey,0);
   ArrayResize(digest,0);
   int n=CryptEncode(CRYPT_HASH_SHA256,data,nokey,digest);
   return(n==32 && ArraySize(digest)==32);
  }

//+------------------------------------------------------------------+
//| Appends src to dst (byte arrays).                                |
//+------------------------------------------------------------------+
void CbBytesAppend(uchar &dst[],const uchar &src[])
  {
   int at=ArraySize(dst);
   int n=ArraySize(src);
   if(n==0)
      return;
   ArrayResize(dst,at+n);
   for(int i=0; i<n; i++)
      dst[at+i]=src[i];
  }

//+------------------------------------------------------------------+
//| HMAC-SHA256 (RFC 2104) of msg keyed with key; mac gets 32 bytes. |
//| False when hashing fails.                                        |
//+------------------------------------------------------------------+
bool CbHmacSha256(const uchar &key[],const uchar &msg[],uchar &mac[])
  {
   uchar k0[];
   ArrayResize(k0,64);
   ArrayInitialize(k0,0);
   if(ArraySize(key)>64)
     {
      uchar kh[];
      if(!CbSha256(key,kh))
         return(false);
      for(int i=0; i<32; i++)
         k0[i]=kh[i];
     }
   else
     {
      for(int i=0; i<ArraySize(key); i++)
         k0[i]=key[i];
     }
//--- inner = SHA256((K0 ^ ipad) || msg)
   uchar inner[];
   ArrayResize(inner,64);
   for(int i=0; i<64; i++)
      inner[i]=(uchar)(k0[i]^0x36);
   CbBytesAppend(inner,msg);
   uchar innerHash[];
   if(!CbSha256(inner,innerHash))
      return(false);
//--- outer = SHA256((K0 ^ opad) || inner hash)
   uchar outer[];
   ArrayResize(outer,64);
   for(int i=0; i<64; i++)
      outer[i]=(uchar)(k0[i]^0x5c);
   CbBytesAppend(outer,innerHash);
   return(CbSha256(outer,mac));
  }

//+------------------------------------------------------------------+
//| Lowercase hex of bytes (two characters per byte).                |
//+------------------------------------------------------------------+
string CbHex(const uchar &bytes[])
  {
   string digits="0123456789abcdef";
   string out="";
   for(int i=0; i<ArraySize(bytes); i++)
     {
      int b=(int)bytes[i];
      out=out+StringSubstr(digits,(b>>4)&15,1)+StringSubstr(digits,b&15,1);
     }
   return(out);
  }

//+------------------------------------------------------------------+
//| Lowercase hex HMAC-SHA256 of message keyed with key, both taken  |
//| as UTF-8 bytes. "" when hashing fails.                           |
//+------------------------------------------------------------------+
string CbHmacSha256Hex(const string key,const string message)
  {
   uchar k[];
   uchar m[];
   uchar mac[];
   CbUtf8(key,k);
   CbUtf8(message,m);
   if(!CbHmacSha256(k,m,mac))
      return("");
   return(CbHex(mac));
  }

#endif // COPYBRIDGE_HMAC_MQH
