#if canImport(Glibc)
import CMalloc
#endif

/// How a stage's process hands memory back to the system: set once, before a stage runs.
///
/// glibc serves a large allocation from its own mapping and unmaps it on free, but only above
/// a threshold that it raises, by default, to the size of every such block freed (up to
/// 32 MB). After the first large table is freed, the next ones come from the heap and its
/// arenas, where freed memory is kept for reuse and seldom returned: the process's resident
/// memory then sits well above what it holds. A stage frees tables of tens of megabytes all
/// the time (a section serialized, a sort's scratch, a pool's hash table), so the threshold
/// is fixed at 1 MB: every block at least that large is its own mapping, returned on free.
///
/// Measured on the full-size FAA build (`make bench`): `emit-aircraft` 250–277 MB peak RSS
/// against a 216 MB heap peak (massif) before, 200–217 MB after; `ingest-faa` 137–141 → 124–126
/// MB; the time is the same within noise.
///
/// ```swift
/// StageMemory.configure()   // the first thing `runStage(name:)` does
/// ```
public enum StageMemory {
    /// Blocks of at least this many bytes get mappings of their own.
    public static let mappedBlockThreshold: Int32 = 1 << 20

    /// Fixes the allocator's mapping threshold (glibc); does nothing elsewhere. Returns whether
    /// the allocator took it.
    @discardableResult
    public static func configure() -> Bool {
        #if canImport(Glibc)
        return fieldguide_set_mmap_threshold(mappedBlockThreshold) == 1
        #else
        return false
        #endif
    }

    /// Whether the block `pointer` starts (from `malloc`, as Swift allocates) is a mapping of
    /// its own (glibc), nil elsewhere: what the tests check.
    public static func isMappedBlock(_ pointer: UnsafeRawPointer) -> Bool? {
        #if canImport(Glibc)
        return fieldguide_is_mapped_block(pointer) != 0
        #else
        return nil
        #endif
    }
}
