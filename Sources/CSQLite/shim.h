#ifndef THUMBIFY_CSQLITE_SHIM_H
#define THUMBIFY_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import; sqlite3_bind_text needs it to copy the bound string.
static inline int thumbify_sqlite3_bind_text_transient(sqlite3_stmt *s, int i, const char *t, int n) {
  return sqlite3_bind_text(s, i, t, n, SQLITE_TRANSIENT);
}
static inline int thumbify_sqlite3_bind_blob_transient(sqlite3_stmt *s, int i, const void *b, int n) {
  return sqlite3_bind_blob(s, i, b, n, SQLITE_TRANSIENT);
}
#endif
