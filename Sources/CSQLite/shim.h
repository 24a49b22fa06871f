#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
// SQLite, as Swift sees it. SQLITE_TRANSIENT is a cast macro Swift cannot import.
#include <sqlite3.h>

static inline sqlite3_destructor_type csq_transient(void) { return SQLITE_TRANSIENT; }

#endif
