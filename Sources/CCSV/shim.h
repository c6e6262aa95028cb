// libcsv (Debian: libcsv-dev) ships no pkg-config file, so the module map links `csv` itself.
#ifndef FIELDGUIDE_CCSV_SHIM_H
#define FIELDGUIDE_CCSV_SHIM_H
#include <csv.h>
#include <stddef.h>

/// A space function that treats no character as space: libcsv must not trim anything,
/// callers trim deliberately (FAA fields are space padded, eBird values are not).
static inline int fieldguide_csv_no_space(unsigned char c) { (void)c; return 0; }

/// Installs `fieldguide_csv_no_space`; Swift cannot pass a C function pointer it did not define.
static inline void fieldguide_csv_disable_trimming(struct csv_parser *p) {
    csv_set_space_func(p, fieldguide_csv_no_space);
}
#endif
