// The system libsqlite3 (C API), for the lookup baseline of fieldguide-bench: SQLITE_STATIC
// and SQLITE_TRANSIENT are casts of integers to function pointers, which Swift cannot
// import, so binding text goes through these two wrappers.
#ifndef FIELDGUIDE_BENCH_SQLITE_SHIM_H
#define FIELDGUIDE_BENCH_SQLITE_SHIM_H
#include <sqlite3.h>

/// Binds text the caller keeps alive until the statement is reset (no copy, as a lookup would).
static inline int fieldguide_bench_bind_static(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_STATIC);
}

/// Binds text SQLite copies (the rows loaded once).
static inline int fieldguide_bench_bind_transient(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
#endif
