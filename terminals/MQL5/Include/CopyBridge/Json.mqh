//+------------------------------------------------------------------+
//| CopyBridge/Json.mqh                                      [shared] |
//| JSON for the bridge protocol:                                     |
//|  CbJsonWriter - builds compact JSON text, RFC 8259 escaping       |
//|                 (control characters as \u00XX), decimals written  |
//|                 as strings with explicit digits, tickets as text. |
//|  CbJson       - small reader: parses a text into a flat list of   |
//|                 nodes addressed by dotted paths with indexes      |
//|                 ("orders.0.volume"; "" is the root).              |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_JSON_MQH
#define COPYBRIDGE_JSON_MQH

#define CB_JSON_NULL   0
#define CB_JSON_BOOL   1
#define CB_JSON_NUMBER 2
#define CB_JSON_STRING 3
#define CB_JSON_OBJECT 4
#define CB_JSON_ARRAY  5

//+------------------------------------------------------------------+
//| JSON string literal of s (with the quotes), RFC 8259 escaping:   |
//| quote, backslash, \b \f \n \r \t, other controls as \u00XX.      |
//+------------------------------------------------------------------+
string CbJsonQuote(const string s)
  {
   string hex="0123456789abcdef";
   string out="\"";
   int n=StringLen(s);
   int runStart=0;
   for(int i=0; i<n; i++)
     {
      ushort c=StringGetCharacter(s,i);
      string esc="";
      if(c=='"')
         esc="\\\"";
      else
         if(c=='\\')
            esc="\\\\";
         else
            if(c==8)
               esc="\\b";
            else
               if(c==12)
                  esc="\\f";
               else
                  if(c==10)
                     esc="\\n";
                  else
                     if(c==13)
                        esc="\\r";
                     else
                        if(c==9)
                           esc="\\t";
                        else
                           if(c<32)
                              esc="\\u00"+StringSubstr(hex,(c>>4)&15,1)+StringSubstr(hex,c&15,1);
      if(esc!="")
        {
         if(i>runStart)
            out=out+StringSubstr(s,runStart,i-runStart);
         out=out+esc;
         runStart=i+1;
        }
     }
   if(n>runStart)
      out=out+StringSubstr(s,runStart,n-runStart);
   return(out+"\"");
  }

//+------------------------------------------------------------------+
//| Decimal text of v with `digits` decimals (0..8); digits < 0 → up |
//| to 8 decimals with trailing zeros removed. "-0" becomes "0";     |
//| NaN/inf become "0".                                              |
//+------------------------------------------------------------------+
string CbDecimal(const double v,const int digits)
  {
   if(!MathIsValidNumber(v))
      return("0");
   string s="";
   if(digits>=0)
      s=DoubleToString(v,digits);
   else
     {
      s=DoubleToString(v,8);
      if(StringFind(s,".")>=0)
        {
         int end=StringLen(s);
         while(end>0 && StringGetCharacter(s,end-1)=='0')
            end--;
         if(end>0 && StringGetCharacter(s,end-1)=='.')
            end--;
         s=StringSubstr(s,0,end);
        }
     }
//--- "-0", "-0.00" → without the sign
   if(StringGetCharacter(s,0)=='-')
     {
      bool zero=true;
      for(int i=1; i<StringLen(s); i++)
        {
         ushort c=StringGetCharacter(s,i);
         if(c!='0' && c!='.')
           {
            zero=false;
            break;
           }
        }
      if(zero)
         s=StringSubstr(s,1);
     }
   if(s=="")
      s="0";
   return(s);
  }

//+------------------------------------------------------------------+
//| Compact JSON writer. Keys are ignored inside arrays; "" as key    |
//| at the top level or in an array writes a bare value.             |
//+------------------------------------------------------------------+
class CbJsonWriter
  {
private:
   string            m_text;
   int               m_kinds[];   // CB_JSON_OBJECT / CB_JSON_ARRAY per open container
   bool              m_first[];   // next member is the first of its container

   void              Prefix(const string key)
     {
      int d=ArraySize(m_kinds);
      if(d==0)
         return;
      if(!m_first[d-1])
         m_text=m_text+",";
      m_first[d-1]=false;
      if(m_kinds[d-1]==CB_JSON_OBJECT)
         m_text=m_text+CbJsonQuote(key)+":";
     }
   void              Push(const int kind)
     {
      int d=ArraySize(m_kinds);
      ArrayResize(m_kinds,d+1);
      ArrayResize(m_first,d+1);
      m_kinds[d]=kind;
      m_first[d]=true;
     }
   void              Pop(void)
     {
      int d=ArraySize(m_kinds);
      if(d==0)
         return;
      ArrayResize(m_kinds,d-1);
      ArrayResize(m_first,d-1);
     }

public:
                     CbJsonWriter(void) { m_text=""; }
   //--- clears the writer for a new document
   void              Reset(void)
     {
      m_text="";
      ArrayResize(m_kinds,0);
      ArrayResize(m_first,0);
     }
   //--- opens an object (key ignored at the top level and inside arrays)
   void              BeginObject(const string key="") { Prefix(key); m_text=m_text+"{"; Push(CB_JSON_OBJECT); }
   //--- closes the innermost object
   void              EndObject(void) { m_text=m_text+"}"; Pop(); }
   //--- opens an array member named key (key ignored at the top level / inside arrays)
   void              BeginArray(const string key="") { Prefix(key); m_text=m_text+"["; Push(CB_JSON_ARRAY); }
   //--- closes the innermost array
   void              EndArray(void) { m_text=m_text+"]"; Pop(); }
   //--- string member (escaped)
   void              Str(const string key,const string v) { Prefix(key); m_text=m_text+CbJsonQuote(v); }
   //--- member whose value is already JSON text (written as is)
   void              Raw(const string key,const string jsonText) { Prefix(key); m_text=m_text+jsonText; }
   //--- integer member (JSON number)
   void              Int(const string key,const long v) { Prefix(key); m_text=m_text+IntegerToString(v); }
   //--- decimal member written as a string with `digits` decimals (see CbDecimal)
   void              Dec(const string key,const double v,const int digits) { Prefix(key); m_text=m_text+"\""+CbDecimal(v,digits)+"\""; }
   //--- boolean member
   void              Bool(const string key,const bool v) { Prefix(key); if(v) m_text=m_text+"true"; else m_text=m_text+"false"; }
   //--- null member
   void              Null(const string key) { Prefix(key); m_text=m_text+"null"; }
   //--- the JSON text written so far
   string            Text(void) const { return(m_text); }
  };

//+------------------------------------------------------------------+
//| Small JSON reader: every value becomes one node (path, type,     |
//| text); containers know their number of children.                 |
//+------------------------------------------------------------------+
class CbJson
  {
private:
   string            m_src;
   int               m_len;
   int               m_pos;
   string            m_error;
   string            m_paths[];
   int               m_types[];
   string            m_values[];   // string value, number text, "true"/"false"
   int               m_counts[];   // children of objects/arrays
   int               m_hint;       // where the last Find succeeded (lookups are mostly in order)

   ushort            Ch(void) const { return(m_pos<m_len ? StringGetCharacter(m_src,m_pos) : (ushort)0); }
   void              SkipWs(void)
     {
      while(m_pos<m_len)
        {
         ushort c=StringGetCharacter(m_src,m_pos);
         if(c==' ' || c=='\t' || c=='\n' || c=='\r')
            m_pos++;
         else
            break;
        }
     }
   bool              Fail(const string what)
     {
      if(m_error=="")
         m_error=what+" at "+IntegerToString(m_pos);
      return(false);
     }
   int               Add(const string path,const int type,const string value)
     {
      int n=ArraySize(m_paths);
      ArrayResize(m_paths,n+1);
      ArrayResize(m_types,n+1);
      ArrayResize(m_values,n+1);
      ArrayResize(m_counts,n+1);
      m_paths[n]=path;
      m_types[n]=type;
      m_values[n]=value;
      m_counts[n]=0;
      return(n);
     }
   static int        HexVal(const ushort c)
     {
      if(c>='0' && c<='9')
         return(c-'0');
      if(c>='a' && c<='f')
         return(c-'a'+10);
      if(c>='A' && c<='F')
         return(c-'A'+10);
      return(-1);
     }
   bool              ParseString(string &out)
     {
      out="";
      if(Ch()!='"')
         return(Fail("expected string"));
      m_pos++;
      int runStart=m_pos;
      while(m_pos<m_len)
        {
         ushort c=StringGetCharacter(m_src,m_pos);
         if(c=='"')
           {
            if(m_pos>runStart)
               out=out+StringSubstr(m_src,runStart,m_pos-runStart);
            m_pos++;
            return(true);
           }
         if(c<32)
            return(Fail("control character in string"));
         if(c!='\\')
           {
            m_pos++;
            continue;
           }
         if(m_pos>runStart)
            out=out+StringSubstr(m_src,runStart,m_pos-runStart);
         m_pos++;
         if(m_pos>=m_len)
            return(Fail("unterminated escape"));
         ushort e=StringGetCharacter(m_src,m_pos);
         m_pos++;
         if(e=='"')
            out=out+"\"";
         else
            if(e=='\\')
               out=out+"\\";
            else
               if(e=='/')
                  out=out+"/";
               else
                  if(e=='b')
                     out=out+ShortToString(8);
                  else
                     if(e=='f')
                        out=out+ShortToString(12);
                     else
                        if(e=='n')
                           out=out+"\n";
                        else
                           if(e=='r')
                              out=out+"\r";
                           else
                              if(e=='t')
                                 out=out+"\t";
                              else
                                 if(e=='u')
                                   {
                                    if(m_pos+4>m_len)
                                       return(Fail("bad \\u escape"));
                                    int code=0;
                                    for(int k=0; k<4; k++)
                                      {
                                       int h=HexVal(StringGetCharacter(m_src,m_pos+k));
                                       if(h<0)
                                          return(Fail("bad \\u escape"));
                                       code=code*16+h;
                                      }
                                    m_pos+=4;
                                    out=out+ShortToString((ushort)code);
                                   }
                                 else
                                    return(Fail("bad escape"));
         runStart=m_pos;
        }
      return(Fail("unterminated string"));
     }
   bool              ParseNumber(string &out)
     {
      int start=m_pos;
      if(Ch()=='-')
         m_pos++;
      int digits=0;
      while(m_pos<m_len)
        {
         ushort c=StringGetCharacter(m_src,m_pos);
         if((c>='0' && c<='9') || c=='.' || c=='e' || c=='E' || c=='+' || c=='-')
           {
            if(c>='0' && c<='9')
               digits++;
            m_pos++;
           }
         else
            break;
        }
      if(digits==0)
         return(Fail("bad number"));
      out=StringSubstr(m_src,start,m_pos-start);
      return(true);
     }
   bool              Literal(const string word)
     {
      int n=StringLen(word);
      if(m_pos+n>m_len || StringSubstr(m_src,m_pos,n)!=word)
         return(Fail("bad literal"));
      m_pos+=n;
      return(true);
     }
   bool              ParseValue(const string path,const int depth)
     {
      if(depth>64)
         return(Fail("too deep"));
      SkipWs();
      ushort c=Ch();
      string prefix="";
      if(path!="")
         prefix=path+".";
      if(c=='{')
        {
         int node=Add(path,CB_JSON_OBJECT,"");
         m_pos++;
         SkipWs();
         if(Ch()=='}')
           {
            m_pos++;
            return(true);
           }
         while(true)
           {
            SkipWs();
            string key="";
            if(!ParseString(key))
               return(false);
            SkipWs();
            if(Ch()!=':')
               return(Fail("expected ':'"));
            m_pos++;
            if(!ParseValue(prefix+key,depth+1))
               return(false);
            m_counts[node]++;
            SkipWs();
            c=Ch();
            m_pos++;
            if(c=='}')
               return(true);
            if(c!=',')
               return(Fail("expected ',' or '}'"));
           }
        }
      if(c=='[')
        {
         int node=Add(path,CB_JSON_ARRAY,"");
         m_pos++;
         SkipWs();
         if(Ch()==']')
           {
            m_pos++;
            return(true);
           }
         while(true)
           {
            if(!ParseValue(prefix+IntegerToString(m_counts[node]),depth+1))
               return(false);
            m_counts[node]++;
            SkipWs();
            c=Ch();
            m_pos++;
            if(c==']')
               return(true);
            if(c!=',')
               return(Fail("expected ',' or ']'"));
           }
        }
      if(c=='"')
        {
         string s="";
         if(!ParseString(s))
            return(false);
         Add(path,CB_JSON_STRING,s);
         return(true);
        }
      if(c=='t')
        {
         if(!Literal("true"))
            return(false);
         Add(path,CB_JSON_BOOL,"true");
         return(true);
        }
      if(c=='f')
        {
         if(!Literal("false"))
            return(false);
         Add(path,CB_JSON_BOOL,"false");
         return(true);
        }
      if(c=='n')
        {
         if(!Literal("null"))
            return(false);
         Add(path,CB_JSON_NULL,"");
         return(true);
        }
      string num="";
      if(!ParseNumber(num))
         return(false);
      Add(path,CB_JSON_NUMBER,num);
      return(true);
     }

public:
                     CbJson(void) { m_src=""; m_len=0; m_pos=0; m_error=""; m_hint=0; }
   //--- parses text (replacing any earlier document); false on malformed JSON (see Error())
   bool              Parse(const string text)
     {
      m_src=text;
      m_len=StringLen(text);
      m_pos=0;
      m_error="";
      m_hint=0;
      ArrayResize(m_paths,0);
      ArrayResize(m_types,0);
      ArrayResize(m_values,0);
      ArrayResize(m_counts,0);
      if(!ParseValue("",0))
         return(false);
      SkipWs();
      if(m_pos<m_len)
         return(Fail("trailing characters"));
      return(true);
     }
   //--- why the last Parse failed ("" after a success)
   string            Error(void) const { return(m_error); }
   //--- number of nodes
   int               Size(void) const { return(ArraySize(m_paths)); }
   //--- node index of a dotted path ("" = root), -1 when absent
   int               Find(const string path)
     {
      int n=ArraySize(m_paths);
      if(n==0)
         return(-1);
      if(m_hint<0 || m_hint>=n)
         m_hint=0;
      for(int k=0; k<n; k++)
        {
         int i=(m_hint+k)%n;
         if(m_paths[i]==path)
           {
            m_hint=i;
            return(i);
           }
        }
      return(-1);
     }
   //--- node type (CB_JSON_*), -1 when absent
   int               Type(const string path) { int i=Find(path); return(i<0 ? -1 : m_types[i]); }
   //--- true when the path exists
   bool              Has(const string path) { return(Find(path)>=0); }
   //--- string value; numbers and booleans as their text; def when absent, null or a container
   string            Str(const string path,const string def)
     {
      int i=Find(path);
      if(i<0)
         return(def);
      int t=m_types[i];
      if(t==CB_JSON_STRING || t==CB_JSON_NUMBER || t==CB_JSON_BOOL)
         return(m_values[i]);
      return(def);
     }
   //--- integer value of a number or numeric string (fraction cut off); def otherwise
   long              Int(const string path,const long def)
     {
      int i=Find(path);
      if(i<0)
         return(def);
      int t=m_types[i];
      if(t!=CB_JSON_NUMBER && t!=CB_JSON_STRING)
         return(def);
      string v=m_values[i];
      if(StringLen(v)==0)
         return(def);
      if(StringFind(v,".")>=0 || StringFind(v,"e")>=0 || StringFind(v,"E")>=0)
         return((long)StringToDouble(v));
      return(StringToInteger(v));
     }
   //--- double value of a number or numeric string; def otherwise
   double            Num(const string path,const double def)
     {
      int i=Find(path);
      if(i<0)
         return(def);
      int t=m_types[i];
      if(t!=CB_JSON_NUMBER && t!=CB_JSON_STRING)
         return(def);
      if(StringLen(m_values[i])==0)
         return(def);
      return(StringToDouble(m_values[i]));
     }
   //--- boolean value; def when absent or not a boolean
   bool              Bool(const string path,const bool def)
     {
      int i=Find(path);
      if(i<0 || m_types[i]!=CB_JSON_BOOL)
         return(def);
      return(m_values[i]=="true");
     }
   //--- true when the value is null or the path is absent
   bool              IsNull(const string path)
     {
      int i=Find(path);
      return(i<0 || m_types[i]==CB_JSON_NULL);
     }
   //--- number of children of an object/array, 0 otherwise
   int               Count(const string path)
     {
      int i=Find(path);
      if(i<0)
         return(0);
      return(m_counts[i]);
     }
   //--- path of node i ("" when out of range)
   string            PathAt(const int i) const
     {
      if(i<0 || i>=ArraySize(m_paths))
         return("");
      return(m_paths[i]);
     }
  };

#endif // COPYBRIDGE_JSON_MQH
