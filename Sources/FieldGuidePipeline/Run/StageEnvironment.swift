/// The environment a stage runs in: the pipeline's own, with glibc asked to back the stage's
/// large allocations with transparent huge pages.
///
/// Why: a stage's tables are tens of megabytes read at random (a string pool's hash table of
/// 2 million strings, the registrations a summary gathers in bucket order, a radix sort's
/// scatter), so with 4 KB pages nearly every such read also misses the TLB, and every page
/// first touched is a fault. Linux gives huge pages to memory that asks for them
/// (`madvise`, the usual default of `/sys/kernel/mm/transparent_hugepage/enabled`); glibc
/// asks for its own mappings when the tunable `glibc.malloc.hugetlb=1` is set at the process's
/// start, and every block a stage allocates past 1 MB is such a mapping (`StageMemory`).
/// Measured on the full-size FAA build, 3 alternating runs of 3 rounds each: 3.34-3.53 s wall
/// without, 3.01-3.35 s with; CPU 5.86-6.21 s against 5.38-5.97 s; peak RSS 236-239 MB against
/// 239-244 MB. The outputs are byte-identical either way: it changes where memory comes from,
/// not what is in it, so it is no part of a stage's fingerprint.
///
/// An operator's own setting of the tunable stands (`glibc.malloc.hugetlb=0` turns it off),
/// and other tunables are kept. A stage run by hand runs with the environment it is given.
///
/// ```swift
/// StageEnvironment.forStages(["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"])["GLIBC_TUNABLES"]
/// // "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"
/// ```
enum StageEnvironment {
    /// The variable glibc reads its tunables from, at a process's start.
    static let tunablesVariable = "GLIBC_TUNABLES"
    /// The tunable asking glibc for huge pages (glibc 2.35 and later; earlier ones ignore it).
    static let hugePages = "glibc.malloc.hugetlb=1"

    /// `environment` with the huge-page tunable added, unless it already sets that tunable.
    static func forStages(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        let tunables = environment[tunablesVariable] ?? ""
        let names = tunables.split(separator: ":").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        guard !names.contains("glibc.malloc.hugetlb") else { return environment }
        environment[tunablesVariable] = tunables.isEmpty ? hugePages : tunables + ":" + hugePages
        return environment
    }
}
