/*
 * A loadable SQLite extension for the connections that run benchmark queries (src/execution/dqs.ts).
 *
 * 1. Double-quoted strings (DQS) on, as a default SQLite build has them (Python's sqlite3, which the
 *    official Spider and BIRD evaluators run on): SQLite itself then resolves each double-quoted
 *    name per reference, a column where one is in scope, else a string. better-sqlite3 compiles
 *    SQLite with SQLITE_DQS=0, which only sets the default; this runtime switch overrides it
 *    whatever the compile options or whichever binary (built or prebuilt) is installed.
 *
 * 2. sqlboard_compat(refused): called once per connection, before any benchmark query (a second
 *    call is an error, so no query can change what the next ones meet). `refused` names
 *    functions, comma-separated, that an older SQLite lacks (score --sqlite-compat): an authorizer
 *    denies each where the statement is prepared, where the older SQLite stops with "no such
 *    function" (src/execution/sqlite-compat.ts gives that message).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#include <string.h>

typedef struct Compat {
  int set;        /* sqlboard_compat was called */
  char *refused;  /* ",name,name," (lower case), or NULL */
} Compat;

static void compat_free(void *p) {
  Compat *c = (Compat *)p;
  sqlite3_free(c->refused);
  sqlite3_free(c);
}

static int deny_refused(void *p, int action, const char *a1, const char *a2, const char *db, const char *trigger) {
  (void)a1; (void)db; (void)trigger;
  const Compat *c = (const Compat *)p;
  if (action != SQLITE_FUNCTION || a2 == 0 || c->refused == 0) return SQLITE_OK;
  size_t n = strlen(a2);
  for (const char *at = strstr(c->refused, a2); at != 0; at = strstr(at + 1, a2)) {
    if (at[-1] == ',' && at[n] == ',') return SQLITE_DENY;
  }
  return SQLITE_OK;
}

static void compat_set(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  Compat *c = (Compat *)sqlite3_user_data(ctx);
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  if (c->set) {
    sqlite3_result_error(ctx, "sqlboard_compat: already set for this connection", -1);
    return;
  }
  c->set = 1;
  const char *refused = (const char *)sqlite3_value_text(argv[0]);
  if (refused != 0 && refused[0] != 0) {
    c->refused = sqlite3_mprintf(",%s,", refused);
    if (c->refused == 0) { sqlite3_result_error_nomem(ctx); return; }
    for (char *z = c->refused; *z; z++) if (*z >= 'A' && *z <= 'Z') *z += 'a' - 'A';
    sqlite3_set_authorizer(db, deny_refused, c);
  }
  sqlite3_result_int(ctx, 1);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_dqs_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi)
  (void)pzErrMsg;
  int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 1, (int *)0);
  if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 1, (int *)0);
  if (rc != SQLITE_OK) return rc;
  Compat *c = (Compat *)sqlite3_malloc(sizeof(Compat));
  if (c == 0) return SQLITE_NOMEM;
  memset(c, 0, sizeof(Compat));
  return sqlite3_create_function_v2(db, "sqlboard_compat", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, c, compat_set, 0, 0, compat_free);
}
