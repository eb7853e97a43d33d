/*
 * A loadable SQLite extension that turns on double-quoted string literals (DQS) for the connection
 * that loads it, as a default SQLite build has them (Python's sqlite3, which the official Spider
 * and BIRD evaluators run on): SQLite itself then resolves each double-quoted name per reference,
 * a column where one is in scope, else a string. better-sqlite3 compiles SQLite with SQLITE_DQS=0,
 * which only sets the default; this runtime switch overrides it whatever the compile options or
 * whichever binary (built or prebuilt) is installed. See src/execution/dqs.ts.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_dqs_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi)
  (void)pzErrMsg;
  int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 1, (int *)0);
  if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 1, (int *)0);
  return rc;
}
