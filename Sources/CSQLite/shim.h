#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
// SQLite, as Swift sees it. SQLITE_TRANSIENT is a cast macro Swift cannot import.
#include <sqlite3.h>

static inline sqlite3_destructor_type csq_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call.
static inline int csq_checkpoint_on_close(sqlite3 *db, int on) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on ? 0 : 1, (int *)0);
}

#endif
