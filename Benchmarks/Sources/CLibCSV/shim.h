// libcsv itself for the tokenizing baseline of ebd-tokenize: the parser with callbacks that
// only count, in C, so the figure is libcsv's and nothing else's.
#ifndef FIELDGUIDE_BENCH_LIBCSV_SHIM_H
#define FIELDGUIDE_BENCH_LIBCSV_SHIM_H
#include <csv.h>
#include <stddef.h>

struct fieldguide_counts { size_t fields; size_t rows; size_t bytes; };

static inline int fieldguide_bench_no_space(unsigned char c) { (void)c; return 0; }
static inline void fieldguide_bench_count_field(void *data, size_t length, void *counts) {
    (void)data; ((struct fieldguide_counts *)counts)->fields += 1; ((struct fieldguide_counts *)counts)->bytes += length;
}
static inline void fieldguide_bench_count_row(int terminator, void *counts) { (void)terminator; ((struct fieldguide_counts *)counts)->rows += 1; }

/// Tab separated, never quoted (quote byte 0), nothing trimmed: the dialect aggregate-ebd reads with.
static inline int fieldguide_bench_init(struct csv_parser *p) {
    if (csv_init(p, 0) != 0) return -1;
    csv_set_space_func(p, fieldguide_bench_no_space);
    csv_set_delim(p, '\t');
    csv_set_quote(p, 0);
    return 0;
}
static inline size_t fieldguide_bench_parse(struct csv_parser *p, const void *bytes, size_t length, struct fieldguide_counts *counts) {
    return csv_parse(p, bytes, length, fieldguide_bench_count_field, fieldguide_bench_count_row, counts);
}
static inline void fieldguide_bench_finish(struct csv_parser *p, struct fieldguide_counts *counts) {
    csv_fini(p, fieldguide_bench_count_field, fieldguide_bench_count_row, counts);
    csv_free(p);
}
#endif
