//+------------------------------------------------------------------+
//| CopyBridge/Store.mqh                                     [shared] |
//| Key/value state file in the terminal's Files folder: one          |
//| `key=value` line each (keys and values escaped: \\ \n \r \e for   |
//| '=' and \uXXXX beyond ASCII, so the file is plain ASCII), closed  |
//| by an `#end` line. Save() is atomic: it writes `<file>.tmp`, then |
//| FileMove(…, FILE_REWRITE) over `<file>`. Entries keep their       |
//| insertion order (the master outbox relies on it).                 |
//| Edit the MQL5 copy, then `npm run terminals:sync`.                |
//+------------------------------------------------------------------+
#ifndef COPYBRIDGE_STORE_MQH
#define COPYBRIDGE_STORE_MQH

//--- escapes a key or value for one line of the store file
string CbStoreEscape(const string s)
  {
   string hex="0123456789abcdef";
   string out="";
   int n=StringLen(s);
   int runStart=0;
   for(int i=0; i<n; i++)
     {
      ushort c=StringGetCharacter(s,i);
      string esc="";
      if(c=='\\')
         esc="\\\\";
      else
         if(c==10)
            esc="\\n";
         else
            if(c==13)
               esc="\\r";
            else
               if(c=='=')
                  esc="\\e";
               else
                  if(c<32 || c>126)
                     esc="\\u"+StringSubstr(hex,(c>>12)&15,1)+StringSubstr(hex,(c>>8)&15,1)+
                         StringSubstr(hex,(c>>4)&15,1)+StringSubstr(hex,c&15,1);
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
   return(out);
  }

//--- value of one hex digit, -1 when not hex
int CbHexDigit(const ushort c)
  {
   if(c>='0' && c<='9')
      return(c-'0');
   if(c>='a' && c<='f')
      return(c-'a'+10);
   if(c>='A' && c<='F')
      return(c-'A'+10);
   return(-1);
  }

//--- reverses CbStoreEscape
string CbStoreUnescape(const string s)
  {
   if(StringFind(s,"\\")<0)
      return(s);
   string out="";
   int n=StringLen(s);
   int runStart=0;
   int i=0;
   while(i<n)
     {
      ushort c=StringGetCharacter(s,i);
      if(c!='\\' || i+1>=n)
        {
         i++;
         continue;
        }
      if(i>runStart)
         out=out+StringSubstr(s,runStart,i-runStart);
      ushort e=StringGetCharacter(s,i+1);
      i+=2;
      if(e=='n')
         out=out+"\n";
      else
         if(e=='r')
            out=out+"\r";
         else
            if(e=='e')
               out=out+"=";
            else
               if(e=='u' && i+4<=n)
                 {
                  int code=0;
                  for(int k=0; k<4; k++)
                    {
                     int h=CbHexDigit(StringGetCharacter(s,i+k));
                     if(h<0)
                        h=0;
                     code=code*16+h;
                    }
                  out=out+ShortToString((ushort)code);
                  i+=4;
                 }
               else
                  out=out+ShortToString(e);
      runStart=i;
     }
   if(n>runStart)
      out=out+StringSubstr(s,runStart,n-runStart);
   return(out);
  }

//+------------------------------------------------------------------+
//| Ordered key/value store persisted in one text file.              |
//+------------------------------------------------------------------+
class CbStore
  {
private:
   string            m_file;
   string            m_keys[];
   string            m_vals[];
   bool              m_dirty;
   int               m_hint;

   bool              ReadFile(const string name)
     {
      if(!FileIsExist(name))
         return(false);
      ResetLastError();
      int h=FileOpen(name,FILE_READ|FILE_TXT|FILE_ANSI);
      if(h<0)
        {
         Print("CopyBridge: ERROR cannot open state file "+name+" (error "+IntegerToString(GetLastError())+")");
         return(false);
        }
      string keys[];
      string vals[];
      bool complete=false;
      while(!FileIsEnding(h))
        {
         string line=FileReadString(h);
         while(StringLen(line)>0 && StringGetCharacter(line,StringLen(line)-1)==13)
            line=StringSubstr(line,0,StringLen(line)-1);
         if(line=="#end")
           {
            complete=true;
            break;
           }
         int eq=StringFind(line,"=");
         if(eq<=0)
            continue;
         int n=ArraySize(keys);
         ArrayResize(keys,n+1);
         ArrayResize(vals,n+1);
         keys[n]=CbStoreUnescape(StringSubstr(line,0,eq));
         vals[n]=CbStoreUnescape(StringSubstr(line,eq+1));
        }
      FileClose(h);
      if(!complete)
         return(false);
      int m=ArraySize(keys);
      ArrayResize(m_keys,m);
      ArrayResize(m_vals,m);
      for(int i=0; i<m; i++)
        {
         m_keys[i]=keys[i];
         m_vals[i]=vals[i];
        }
      return(true);
     }

public:
                     CbStore(void) { m_file=""; m_dirty=false; m_hint=0; }
   //--- loads `file` (or, when it is missing or cut short, a complete `file.tmp`).
   //--- A missing file is an empty store; returns false only when a file exists but
   //--- cannot be read completely (the store is then empty).
   bool              Load(const string file)
     {
      m_file=file;
      m_dirty=false;
      m_hint=0;
      ArrayResize(m_keys,0);
      ArrayResize(m_vals,0);
      if(ReadFile(file))
         return(true);
      if(ReadFile(file+".tmp"))
        {
         m_dirty=true;
         return(true);
        }
      return(!FileIsExist(file));
     }
   //--- file name given to Load
   string            File(void) const { return(m_file); }
   //--- index of key, -1 when absent
   int               Find(const string key)
     {
      int n=ArraySize(m_keys);
      if(n==0)
         return(-1);
      if(m_hint<0 || m_hint>=n)
         m_hint=0;
      for(int k=0; k<n; k++)
        {
         int i=(m_hint+k)%n;
         if(m_keys[i]==key)
           {
            m_hint=i;
            return(i);
           }
        }
      return(-1);
     }
   //--- true when key is set
   bool              Has(const string key) { return(Find(key)>=0); }
   //--- value of key, def when absent
   string            Get(const string key,const string def)
     {
      int i=Find(key);
      if(i<0)
         return(def);
      return(m_vals[i]);
     }
   //--- integer value of key, def when absent
   long              GetInt(const string key,const long def)
     {
      int i=Find(key);
      if(i<0 || m_vals[i]=="")
         return(def);
      return(StringToInteger(m_vals[i]));
     }
   //--- sets key (new keys are appended, existing ones keep their place)
   void              Set(const string key,const string value)
     {
      int i=Find(key);
      if(i>=0)
        {
         if(m_vals[i]!=value)
           {
            m_vals[i]=value;
            m_dirty=true;
           }
         return;
        }
      int n=ArraySize(m_keys);
      ArrayResize(m_keys,n+1);
      ArrayResize(m_vals,n+1);
      m_keys[n]=key;
      m_vals[n]=value;
      m_dirty=true;
     }
   //--- sets key to an integer
   void              SetInt(const string key,const long value) { Set(key,IntegerToString(value)); }
   //--- removes key (no-op when absent)
   void              Del(const string key)
     {
      int i=Find(key);
      if(i<0)
         return;
      int n=ArraySize(m_keys);
      for(int k=i; k<n-1; k++)
        {
         m_keys[k]=m_keys[k+1];
         m_vals[k]=m_vals[k+1];
        }
      ArrayResize(m_keys,n-1);
      ArrayResize(m_vals,n-1);
      m_hint=0;
      m_dirty=true;
     }
   //--- removes every key starting with prefix; returns how many
   int               DelPrefix(const string prefix)
     {
      int n=ArraySize(m_keys);
      int w=0;
      int plen=StringLen(prefix);
      for(int i=0; i<n; i++)
        {
         if(StringSubstr(m_keys[i],0,plen)==prefix)
            continue;
         if(w!=i)
           {
            m_keys[w]=m_keys[i];
            m_vals[w]=m_vals[i];
           }
         w++;
        }
      if(w!=n)
        {
         ArrayResize(m_keys,w);
         ArrayResize(m_vals,w);
         m_dirty=true;
         m_hint=0;
        }
      return(n-w);
     }
   //--- keys starting with prefix, in insertion order; returns their number
   int               Keys(const string prefix,string &out[])
     {
      ArrayResize(out,0);
      int plen=StringLen(prefix);
      int c=0;
      for(int i=0; i<ArraySize(m_keys); i++)
        {
         if(StringSubstr(m_keys[i],0,plen)!=prefix)
            continue;
         ArrayResize(out,c+1);
         out[c]=m_keys[i];
         c++;
        }
      return(c);
     }
   //--- number of entries
   int               Size(void) const { return(ArraySize(m_keys)); }
   //--- true when changed since the last Save
   bool              Dirty(void) const { return(m_dirty); }
   //--- writes file.tmp and moves it over the file; false (and printed) on failure
   bool              Save(void)
     {
      if(m_file=="")
         return(false);
      string tmp=m_file+".tmp";
      ResetLastError();
      int h=FileOpen(tmp,FILE_WRITE|FILE_TXT|FILE_ANSI);
      if(h<0)
        {
         Print("CopyBridge: ERROR cannot write state file "+tmp+" (error "+IntegerToString(GetLastError())+")");
         return(false);
        }
      for(int i=0; i<ArraySize(m_keys); i++)
         FileWriteString(h,CbStoreEscape(m_keys[i])+"="+CbStoreEscape(m_vals[i])+"\n");
      FileWriteString(h,"#end\n");
      FileFlush(h);
      FileClose(h);
      if(!FileMove(tmp,0,m_file,FILE_REWRITE))
        {
         Print("CopyBridge: ERROR cannot replace state file "+m_file+" (error "+IntegerToString(GetLastError())+")");
         return(false);
        }
      m_dirty=false;
      return(true);
     }
   //--- saves only when something changed
   bool              SaveIfDirty(void)
     {
      if(!m_dirty)
         return(true);
      return(Save());
     }
  };

#endif // COPYBRIDGE_STORE_MQH
