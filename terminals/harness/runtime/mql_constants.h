// CopyBridge harness — enums and constants of the non-trade built-ins (DESIGN.md §4).
// Functions take `int` where MQL takes an enum so that both enum values and integers are accepted.
#pragma once

#include "mql_core.h"

// https://www.mql5.com/en/docs/constants/namedconstants/otherconstants
#define WHOLE_ARRAY (-1)
#define EMPTY (-1)
#define EMPTY_VALUE DBL_MAX
#define INVALID_HANDLE (-1)
#define CHARTS_MAX 100
#define clrNONE ((color)0xFFFFFFFF)
#define CLR_NONE ((color)0xFFFFFFFF)
#define clrBlack ((color)0x000000)
#define clrWhite ((color)0xFFFFFF)
#define clrRed ((color)0x0000FF)
#define clrGreen ((color)0x008000)
#define clrBlue ((color)0xFF0000)
#define clrYellow ((color)0x00FFFF)
#define clrOrange ((color)0x00A5FF)
#define clrGray ((color)0x808080)
#define clrLime ((color)0x00FF00)

// https://www.mql5.com/en/docs/basis/function/events (OnInit return codes)
enum ENUM_INIT_RETCODE { INIT_SUCCEEDED = 0, INIT_FAILED = 1, INIT_PARAMETERS_INCORRECT = 2, INIT_AGENT_NOT_SUITABLE = 3 };

// https://www.mql5.com/en/docs/constants/namedconstants/uninit
#define REASON_PROGRAM 0
#define REASON_REMOVE 1
#define REASON_RECOMPILE 2
#define REASON_CHARTCHANGE 3
#define REASON_CHARTCLOSE 4
#define REASON_PARAMETERS 5
#define REASON_ACCOUNT 6
#define REASON_TEMPLATE 7
#define REASON_INITFAILED 8
#define REASON_CLOSE 9

// https://www.mql5.com/en/docs/constants/io_constants/codepageusage
#define CP_ACP 0
#define CP_OEMCP 1
#define CP_MACCP 2
#define CP_THREAD_ACP 3
#define CP_SYMBOL 42
#define CP_UTF7 65000
#define CP_UTF8 65001

// https://www.mql5.com/en/docs/dateandtime/timetostring
#define TIME_DATE 1
#define TIME_MINUTES 2
#define TIME_SECONDS 4

// https://www.mql5.com/en/docs/constants/io_constants/fileflags
#define FILE_READ 1
#define FILE_WRITE 2
#define FILE_BIN 4
#define FILE_CSV 8
#define FILE_TXT 16
#define FILE_ANSI 32
#define FILE_UNICODE 64
#define FILE_SHARE_READ 128
#define FILE_SHARE_WRITE 256
#define FILE_REWRITE 512
#define FILE_COMMON 4096

// https://www.mql5.com/en/docs/constants/namedconstants/enum_crypt_method (CryptEncode)
enum ENUM_CRYPT_METHOD {
  CRYPT_BASE64 = 0,
  CRYPT_AES128 = 1,
  CRYPT_AES256 = 2,
  CRYPT_DES = 3,
  CRYPT_HASH_SHA1 = 4,
  CRYPT_HASH_SHA256 = 5,
  CRYPT_HASH_MD5 = 6,
  CRYPT_ARCH_ZIP = 7
};

// https://www.mql5.com/en/docs/constants/environment_state/terminalstatus
enum ENUM_TERMINAL_INFO_INTEGER {
  TERMINAL_BUILD = 5,
  TERMINAL_CONNECTED = 6,
  TERMINAL_DLLS_ALLOWED = 7,
  TERMINAL_TRADE_ALLOWED = 8,
  TERMINAL_PING_LAST = 33
};
enum ENUM_TERMINAL_INFO_STRING { TERMINAL_LANGUAGE = 13, TERMINAL_COMPANY = 0, TERMINAL_NAME = 1, TERMINAL_PATH = 2, TERMINAL_DATA_PATH = 3, TERMINAL_COMMONDATA_PATH = 4 };
// https://www.mql5.com/en/docs/constants/environment_state/mql5_programm_info
enum ENUM_MQL_INFO_INTEGER { MQL_PROGRAM_TYPE = 2, MQL_DLLS_ALLOWED = 3, MQL_TRADE_ALLOWED = 4, MQL_TESTER = 6, MQL_OPTIMIZATION = 7, MQL_VISUAL_MODE = 8 };
enum ENUM_MQL_INFO_STRING { MQL_PROGRAM_NAME = 0, MQL_PROGRAM_PATH = 1 };

// Runtime error codes (MQL5: https://www.mql5.com/en/docs/constants/errorswarnings/errorcodes,
// MQL4: https://docs.mql4.com/constants/errorswarnings/errorcodes).
#define ERR_SUCCESS 0
#define ERR_NO_ERROR 0
#define ERR_USER_ERROR_FIRST 65536
#ifdef __MQL5__
#define ERR_INTERNAL_ERROR 4001
#define ERR_WRONG_INTERNAL_PARAMETER 4002
#define ERR_INVALID_PARAMETER 4003
#define ERR_NOT_ENOUGH_MEMORY 4004
#define ERR_ARRAY_RESIZE_ERROR 4007
#define ERR_STRING_RESIZE_ERROR 4008
#define ERR_ARRAY_WRONG_ARRAY 4006
#define ERR_FUNCTION_NOT_ALLOWED 4014
#define ERR_GLOBALVARIABLE_NOT_FOUND 4501
#define ERR_GLOBALVARIABLE_EXISTS 4502
#define ERR_TOO_MANY_FILES 5001
#define ERR_WRONG_FILENAME 5002
#define ERR_TOO_LONG_FILENAME 5003
#define ERR_CANNOT_OPEN_FILE 5004
#define ERR_FILE_CACHEBUFFER_ERROR 5005
#define ERR_CANNOT_DELETE_FILE 5006
#define ERR_INVALID_FILEHANDLE 5007
#define ERR_WRONG_FILEHANDLE 5008
#define ERR_FILE_NOTTOWRITE 5009
#define ERR_FILE_NOTTOREAD 5010
#define ERR_FILE_NOTBIN 5011
#define ERR_FILE_NOTTXT 5012
#define ERR_FILE_NOTTXTORCSV 5013
#define ERR_FILE_NOTCSV 5014
#define ERR_FILE_READERROR 5015
#define ERR_FILE_BINSTRINGSIZE 5016
#define ERR_INCOMPATIBLE_FILE 5017
#define ERR_FILE_IS_DIRECTORY 5018
#define ERR_FILE_NOT_EXIST 5019
#define ERR_FILE_CANNOT_REWRITE 5020
#define ERR_WRONG_DIRECTORYNAME 5021
#define ERR_DIRECTORY_NOT_EXIST 5022
#define ERR_FILE_ISNOT_DIRECTORY 5023
#define ERR_CANNOT_DELETE_DIRECTORY 5024
#define ERR_CANNOT_CLEAN_DIRECTORY 5025
#define ERR_FILE_WRITEERROR 5026
#define ERR_FILE_ENDOFFILE 5027
#else
#define ERR_FUNCTION_NOT_CONFIRMED 4060
#define ERR_INVALID_FUNCTION_PARAMETER_VALUE 4051
#define ERR_STRING_PARAMETER_EXPECTED 4062
#define ERR_GLOBAL_VARIABLE_NOT_FOUND 4058
#define ERR_GLOBAL_VARIABLES_PROCESSING 4057
#define ERR_WEB_REQUEST_NOT_ALLOWED 4060
#define ERR_TOO_MANY_OPENED_FILES 5001
#define ERR_WRONG_FILE_NAME 5002
#define ERR_TOO_LONG_FILE_NAME 5003
#define ERR_CANNOT_OPEN_FILE 5004
#define ERR_CANNOT_DELETE_FILE 5006
#define ERR_INVALID_FILE_HANDLE 5007
#define ERR_WRONG_FILE_HANDLE 5008
#define ERR_FILE_NOT_TOWRITE 5009
#define ERR_FILE_NOT_TOREAD 5010
#define ERR_FILE_NOT_BIN 5011
#define ERR_FILE_NOT_TXT 5012
#define ERR_FILE_NOT_TXTORCSV 5013
#define ERR_FILE_NOT_CSV 5014
#define ERR_FILE_READ_ERROR 5015
#define ERR_FILE_WRITE_ERROR 5016
#define ERR_FILE_NOT_EXIST 5019
#define ERR_FILE_CANNOT_REWRITE 5020
#define ERR_FILE_IS_DIRECTORY 5018
#define ERR_FILE_END_OF_FILE 5027
#define ERR_ARRAY_INDEX_OUT_OF_RANGE 4002
#endif
// https://www.mql5.com/en/docs/network/webrequest (both dialects)
#define ERR_WEBREQUEST_INVALID_ADDRESS 5200
#define ERR_WEBREQUEST_CONNECT_FAILED 5201
#define ERR_WEBREQUEST_TIMEOUT 5202
#define ERR_WEBREQUEST_REQUEST_FAILED 5203

/** "Invalid parameter" error code of the dialect (MQL5 4003, MQL4 4051). */
constexpr int MqlErrParam() { return MqlIsMql5() ? 4003 : 4051; }
