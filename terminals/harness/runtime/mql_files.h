// CopyBridge harness — sandboxed files (`--files DIR`) and terminal global variables
// (persisted in DIR/gvariables.json).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include "mql_strings.h"

// ---------------------------------------------------------------------------------------------
// Files — https://www.mql5.com/en/docs/files

struct MqlFile {
  std::FILE *f = nullptr;
  int flags = 0;
  uint codepage = CP_ACP;
  char16_t delimiter = u'\t';
};
inline std::map<int, MqlFile> &MqlFileTable() {
  static std::map<int, MqlFile> t;
  return t;
}
inline int g_mqlNextFileHandle = 1;

inline int MqlErrFileName() { return 5002; }

/** Creates every missing directory of `dir` (mkdir -p). */
inline void MqlMakeDirs(const std::string &dir) {
  std::string cur;
  for (size_t i = 0; i <= dir.size(); i++) {
    if (i == dir.size() || dir[i] == '/') {
      if (!cur.empty() && cur != ".") mkdir(cur.c_str(), 0755);
    }
    if (i < dir.size()) cur.push_back(dir[i]);
  }
}

/** Sandbox path of an MQL file name ('\\' → '/'); empty when the name leaves the sandbox. */
inline std::string MqlSandboxPath(const string &file_name, bool common) {
  std::string name = file_name.utf8();
  for (char &c : name)
    if (c == '\\') c = '/';
  if (name.empty() || name[0] == '/' || name.find(':') != std::string::npos) return std::string();
  size_t pos = 0;
  while (pos <= name.size()) {
    size_t k = name.find('/', pos);
    std::string part = name.substr(pos, k == std::string::npos ? std::string::npos : k - pos);
    if (part == "..") return std::string();
    if (k == std::string::npos) break;
    pos = k + 1;
  }
  std::string base = common ? g_mqlFilesDir + "/../Common/Files" : g_mqlFilesDir;
  return base + "/" + name;
}

inline bool MqlIsDir(const std::string &p) {
  struct stat st{};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
inline bool MqlIsFile(const std::string &p) {
  struct stat st{};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
inline bool MqlFileUnicode(int flags) { return (flags & FILE_ANSI) == 0; }

inline MqlFile *MqlFileOf(int handle) {
  auto it = MqlFileTable().find(handle);
  if (it == MqlFileTable().end()) {
    MqlSetError(5008);  // ERR_WRONG_FILEHANDLE
    return nullptr;
  }
  return &it->second;
}

// https://www.mql5.com/en/docs/files/fileopen — FILE_READ needs an existing file; FILE_WRITE
// alone truncates; FILE_READ|FILE_WRITE keeps the content. Text without FILE_ANSI is UTF-16LE
// (a BOM is written at the start of a new text file); FILE_ANSI text uses `codepage`
// (CP_UTF8 or one byte per character). Returns a handle or INVALID_HANDLE.
inline int FileOpen(const string &file_name, int open_flags, short delimiter = '\t', uint codepage = CP_ACP) {
  std::string path = MqlSandboxPath(file_name, (open_flags & FILE_COMMON) != 0);
  if (path.empty()) {
    MqlSetError(MqlErrFileName());
    return INVALID_HANDLE;
  }
  if (MqlIsDir(path)) {
    MqlSetError(5018);
    return INVALID_HANDLE;
  }
  bool r = (open_flags & FILE_READ) != 0, w = (open_flags & FILE_WRITE) != 0;
  if (!r && !w) r = true;
  std::FILE *f = nullptr;
  if (w) {
    size_t slash = path.find_last_of('/');
    if (slash != std::string::npos) MqlMakeDirs(path.substr(0, slash));
  }
  if (r && !w) f = std::fopen(path.c_str(), "rb");
  else if (w && !r) f = std::fopen(path.c_str(), "wb");
  else f = std::fopen(path.c_str(), MqlIsFile(path) ? "r+b" : "w+b");
  if (f == nullptr) {
    MqlSetError(ERR_CANNOT_OPEN_FILE);
    return INVALID_HANDLE;
  }
  MqlFile mf;
  mf.f = f;
  mf.flags = open_flags;
  mf.codepage = codepage;
  mf.delimiter = static_cast<char16_t>(delimiter);
  int h = g_mqlNextFileHandle++;
  MqlFileTable()[h] = mf;
  return h;
}
inline int FileOpen(const string &file_name, int open_flags, const string &delimiter, uint codepage = CP_ACP) {
  return FileOpen(file_name, open_flags, delimiter.len() > 0 ? static_cast<short>(delimiter.u16()[0]) : static_cast<short>('\t'), codepage);
}

// https://www.mql5.com/en/docs/files/fileclose
inline void FileClose(int file_handle) {
  auto it = MqlFileTable().find(file_handle);
  if (it == MqlFileTable().end()) return;
  std::fclose(it->second.f);
  MqlFileTable().erase(it);
}
// https://www.mql5.com/en/docs/files/fileflush
inline void FileFlush(int file_handle) {
  MqlFile *mf = MqlFileOf(file_handle);
  if (mf != nullptr) std::fflush(mf->f);
}
inline ulong MqlFileLength(std::FILE *f) {
  long cur = std::ftell(f);
  std::fseek(f, 0, SEEK_END);
  long end = std::ftell(f);
  std::fseek(f, cur, SEEK_SET);
  return static_cast<ulong>(end);
}
// https://www.mql5.com/en/docs/files/filesize — bytes.
inline ulong FileSize(int file_handle) {
  MqlFile *mf = MqlFileOf(file_handle);
  if (mf == nullptr) return 0;
  std::fflush(mf->f);
  return MqlFileLength(mf->f);
}
// https://www.mql5.com/en/docs/files/fileisending — true at the end of the file.
inline bool FileIsEnding(int file_handle) {
  MqlFile *mf = MqlFileOf(file_handle);
  if (mf == nullptr) return true;
  return static_cast<ulong>(std::ftell(mf->f)) >= MqlFileLength(mf->f);
}

// https://www.mql5.com/en/docs/files/filewritestring — text files: the string as is (no line
// end added); binary files: `length` characters (-1: all). Returns the bytes written.
inline uint FileWriteString(int file_handle, const string &text_string, int length = -1) {
  MqlFile *mf = MqlFileOf(file_handle);
  if (mf == nullptr) return 0;
  if ((mf->flags & FILE_WRITE) == 0) {
    MqlSetError(5009);  // ERR_FILE_NOTTOWRITE
    return 0;
  }
  std::u16string u = text_string.u16();
  if ((mf->flags & FILE_BIN) != 0 && length >= 0 && static_cast<size_t>(length) < u.size()) u.resize(static_cast<size_t>(length));
  std::string bytes;
  if (MqlFileUnicode(mf->flags)) {
    bool text = (mf->flags & FILE_BIN) == 0;
    if (text && std::ftell(mf->f) == 0) bytes += "\xFF\xFE";
    for (char16_t c : u) {
      bytes.push_back(static_cast<char>(c & 0xFF));
      bytes.push_back(static_cast<char>(c >> 8));
    }
  } else {
    bytes = MqlEncode(string::FromUtf16(u), mf->codepage);
  }
  size_t n = std::fwrite(bytes.data(), 1, bytes.size(), mf->f);
  if (n != bytes.size()) {
    MqlSetError(5026);
    return 0;
  }
  return static_cast<uint>(n);
}

// https://www.mql5.com/en/docs/files/filereadstring — text files: up to the line end ("\r\n" or
// "\n", removed; CSV also stops at the delimiter); binary files: `length` characters (-1: up to a
// zero character or the end).
inline string FileReadString(int file_handle, int length = -1) {
  MqlFile *mf = MqlFileOf(file_handle);
  if (mf == nullptr) return string();
  if ((mf->flags & FILE_READ) == 0 && (mf->flags & FILE_WRITE) != 0) {
    MqlSetError(5010);  // ERR_FILE_NOTTOREAD
    return string();
  }
  bool bin = (mf->flags & FILE_BIN) != 0;
  bool csv = (mf->flags & FILE_CSV) != 0;
  std::u16string out;
  if (MqlFileUnicode(mf->flags)) {
    if (!bin && std::ftell(mf->f) == 0) {
      int b0 = std::fgetc(mf->f), b1 = std::fgetc(mf->f);
      if (!(b0 == 0xFF && b1 == 0xFE)) std::fseek(mf->f, 0, SEEK_SET);
    }
    while (true) {
      if (bin && length >= 0 && out.size() >= static_cast<size_t>(length)) break;
      int b0 = std::fgetc(mf->f);
      if (b0 == EOF) break;
      int b1 = std::fgetc(mf->f);
      if (b1 == EOF) break;
      char16_t c = static_cast<char16_t>(b0 | (b1 << 8));
      if (bin) {
        if (length < 0 && c == 0) break;
        out.push_back(c);
        continue;
      }
      if (c == u'\n' || (csv && c == mf->delimiter)) break;
      out.push_back(c);
    }
    if (!bin && !out.empty() && out.back() == u'\r') out.pop_back();
    return string::FromUtf16(out);
  }
  const long startPos = std::ftell(mf->f);
  std::string bytes;
  while (true) {
    if (bin && length >= 0) {
      // a character is one byte except in UTF-8, where `length` counts bytes
      if (bytes.size() >= static_cast<size_t>(length)) break;
    }
    int b = std::fgetc(mf->f);
    if (b == EOF) break;
    if (bin) {
      if (length < 0 && b == 0) break;
      bytes.push_back(static_cast<char>(b));
      continue;
    }
    if (b == '\n' || (csv && static_cast<char16_t>(b) == mf->delimiter)) break;
    bytes.push_back(static_cast<char>(b));
  }
  if (!bin && !bytes.empty() && bytes.back() == '\r') bytes.pop_back();
  if (!bin && startPos == 0 && bytes.size() >= 3 && bytes.compare(0, 3, "\xEF\xBB\xBF") == 0)
    bytes.erase(0, 3);
  return MqlDecode(bytes.data(), bytes.size(), mf->codepage);
}

// https://www.mql5.com/en/docs/files/fileisexist — false for directories.
inline bool FileIsExist(const string &file_name, int common_flag = 0) {
  std::string path = MqlSandboxPath(file_name, (common_flag & FILE_COMMON) != 0);
  if (path.empty()) {
    MqlSetError(MqlErrFileName());
    return false;
  }
  if (MqlIsDir(path)) {
    MqlSetError(5018);
    return false;
  }
  return MqlIsFile(path);
}
// https://www.mql5.com/en/docs/files/filedelete
inline bool FileDelete(const string &file_name, int common_flag = 0) {
  std::string path = MqlSandboxPath(file_name, (common_flag & FILE_COMMON) != 0);
  if (path.empty() || !MqlIsFile(path) || std::remove(path.c_str()) != 0) {
    MqlSetError(path.empty() ? MqlErrFileName() : ERR_CANNOT_DELETE_FILE);
    return false;
  }
  return true;
}
// https://www.mql5.com/en/docs/files/filemove — an existing target is replaced only with
// FILE_REWRITE (atomic rename); FILE_COMMON in mode_flags puts the target in the common folder.
inline bool FileMove(const string &src_file_name, int common_flag, const string &dst_file_name, int mode_flags) {
  std::string src = MqlSandboxPath(src_file_name, (common_flag & FILE_COMMON) != 0);
  std::string dst = MqlSandboxPath(dst_file_name, (mode_flags & FILE_COMMON) != 0);
  if (src.empty() || dst.empty()) {
    MqlSetError(MqlErrFileName());
    return false;
  }
  if (!MqlIsFile(src)) {
    MqlSetError(5019);
    return false;
  }
  if (MqlIsFile(dst) && (mode_flags & FILE_REWRITE) == 0) {
    MqlSetError(5020);
    return false;
  }
  size_t slash = dst.find_last_of('/');
  if (slash != std::string::npos) MqlMakeDirs(dst.substr(0, slash));
  if (std::rename(src.c_str(), dst.c_str()) != 0) {
    MqlSetError(5020);
    return false;
  }
  return true;
}

/** Closes every open file (process exit). */
inline void MqlCloseAllFiles() {
  for (auto &kv : MqlFileTable()) std::fclose(kv.second.f);
  MqlFileTable().clear();
}

// ---------------------------------------------------------------------------------------------
// Global variables — https://www.mql5.com/en/docs/globals (double values, names ≤ 63 chars),
// saved to DIR/gvariables.json after every change.

struct MqlGlobalVar {
  double value = 0;
  datetime time = 0;
};
inline std::map<std::string, MqlGlobalVar> &MqlGlobals() {
  static std::map<std::string, MqlGlobalVar> g;
  return g;
}
inline bool g_mqlGlobalsLoaded = false;
inline std::string MqlGlobalsPath() { return g_mqlFilesDir + "/gvariables.json"; }
inline int MqlErrGlobalNotFound() { return MqlIsMql5() ? 4501 : 4058; }

/** Loads DIR/gvariables.json once (format written by MqlSaveGlobals). */
inline void MqlLoadGlobals() {
  if (g_mqlGlobalsLoaded) return;
  g_mqlGlobalsLoaded = true;
  std::FILE *f = std::fopen(MqlGlobalsPath().c_str(), "rb");
  if (f == nullptr) return;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  // {"name":{"value":1.5,"time":123},...}
  size_t i = 0;
  auto readString = [&](std::string &out) -> bool {
    while (i < text.size() && text[i] != '"') i++;
    if (i >= text.size()) return false;
    i++;
    out.clear();
    while (i < text.size() && text[i] != '"') {
      if (text[i] == '\\' && i + 1 < text.size()) {
        char e = text[++i];
        if (e == 'n') out.push_back('\n');
        else if (e == 't') out.push_back('\t');
        else if (e == 'r') out.push_back('\r');
        else if (e == 'u' && i + 4 < text.size()) {
          out.push_back(static_cast<char>(std::strtol(text.substr(i + 1, 4).c_str(), nullptr, 16)));
          i += 4;
        } else out.push_back(e);
      } else {
        out.push_back(text[i]);
      }
      i++;
    }
    i++;
    return true;
  };
  auto readNumber = [&](const char *key) -> double {
    size_t k = text.find(std::string("\"") + key + "\"", i);
    if (k == std::string::npos) return 0;
    k = text.find(':', k);
    return std::strtod(text.c_str() + k + 1, nullptr);
  };
  i = text.find('{');
  if (i == std::string::npos) return;
  i++;
  while (true) {
    std::string name;
    if (!readString(name)) break;
    size_t close = text.find('}', i);
    if (close == std::string::npos) break;
    MqlGlobalVar v;
    v.value = readNumber("value");
    v.time = static_cast<datetime>(readNumber("time"));
    MqlGlobals()[name] = v;
    i = close + 1;
  }
}
/** Writes DIR/gvariables.json (temp file + rename). */
inline void MqlSaveGlobals() {
  MqlMakeDirs(g_mqlFilesDir);
  std::string text = "{";
  bool first = true;
  for (auto &kv : MqlGlobals()) {
    char num[64];
    std::snprintf(num, sizeof num, "%.17g", kv.second.value);
    text += (first ? "" : ",") + MqlJsonQuote(kv.first) + ":{\"value\":" + num + ",\"time\":" + std::to_string(kv.second.time) + "}";
    first = false;
  }
  text += "}\n";
  std::string tmp = MqlGlobalsPath() + ".tmp";
  std::FILE *f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  std::rename(tmp.c_str(), MqlGlobalsPath().c_str());
}

// https://www.mql5.com/en/docs/globals/globalvariableset — returns the time of the change, 0 on error.
inline datetime GlobalVariableSet(const string &name, double value) {
  MqlLoadGlobals();
  if (name.len() == 0 || name.len() > 63) {
    MqlSetError(MqlErrParam());
    return 0;
  }
  datetime now = TimeCurrent();
  MqlGlobals()[name.utf8()] = MqlGlobalVar{value, now};
  MqlSaveGlobals();
  return now;
}
// https://www.mql5.com/en/docs/globals/globalvariableget — 0 with an error when missing.
inline double GlobalVariableGet(const string &name) {
  MqlLoadGlobals();
  auto it = MqlGlobals().find(name.utf8());
  if (it == MqlGlobals().end()) {
    MqlSetError(MqlErrGlobalNotFound());
    return 0;
  }
  return it->second.value;
}
inline bool GlobalVariableGet(const string &name, double &double_var) {
  MqlLoadGlobals();
  auto it = MqlGlobals().find(name.utf8());
  if (it == MqlGlobals().end()) {
    MqlSetError(MqlErrGlobalNotFound());
    return false;
  }
  double_var = it->second.value;
  return true;
}
// https://www.mql5.com/en/docs/globals/globalvariablecheck
inline bool GlobalVariableCheck(const string &name) {
  MqlLoadGlobals();
  return MqlGlobals().count(name.utf8()) > 0;
}
// https://www.mql5.com/en/docs/globals/globalvariabledel
inline bool GlobalVariableDel(const string &name) {
  MqlLoadGlobals();
  bool had = MqlGlobals().erase(name.utf8()) > 0;
  if (had) MqlSaveGlobals();
  return had;
}
// https://www.mql5.com/en/docs/globals/globalvariablesflush
inline void GlobalVariablesFlush() {
  MqlLoadGlobals();
  MqlSaveGlobals();
}
