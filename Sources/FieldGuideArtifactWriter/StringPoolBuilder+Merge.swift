import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideWorkers
import Foundation

extension StringPoolBuilder {
    /// Pools sorted by `finish()`, merged into one: the section bytes of the pool holding every
    /// string of them, and for each input its ids mapped to the merged pool's
    /// (`remaps[i][provisional]` for a provisional id of the `i`th builder).
    ///
    /// Strings were interned into several builders (one per thread, say) and each was sorted
    /// apart; a linear pass over them all interleaves the strings and drops the duplicates. The
    /// result is the pool a single builder of all the strings gives: ids depend only on the set
    /// of strings, never on how they were spread over the builders. From `parallelThreshold`
    /// strings on, the strings below the middle one of the largest pool and the others are
    /// merged on two threads.
    ///
    /// ```swift
    /// let (bytes, remaps) = StringPoolBuilder.merge([first.finish(), second.finish()])
    /// remaps[1][id]   // the merged id of `second`'s provisional `id`
    /// ```
    public static func merge(_ pools: consuming [(bytes: [UInt8], remap: [UInt32])],
                             parallelThreshold: Int = parallelSortThreshold) -> (bytes: [UInt8], remaps: [[UInt32]]) {
        precondition(!pools.isEmpty, "nothing to merge")
        if pools.count == 1 { return (pools[0].bytes, [pools[0].remap]) }
        let counts = pools.map { Int($0.bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }.littleEndian) }
        /// `finals[i][j]`: the merged id of string `j` of sorted pool `i`.
        let finals = counts.map { UnsafeMutableBufferPointer<UInt32>.allocate(capacity: $0) }
        defer { for final in finals { final.deallocate() } }
        var cuts: [Int] = [], firstRunCount: UInt32 = 0
        let bytes = pools.map(\.bytes).withUnsafeBufferPointers { sections in
            // Sections made by `finish()` are well formed.
            let pools = sections.map { try! StringPool(UnsafeRawBufferPointer($0), path: "a pool to merge") }
            let total = pools.map(\.count).reduce(0, +), totalBytes = pools.map(\.dataCount).reduce(0, +)
            // Two runs: the strings below the middle one of the largest pool, and the others.
            let parallel = total >= parallelThreshold
            let pivot = pools.max { $0.count < $1.count }.map { $0.bytes(UInt32($0.count / 2)) }!
            cuts = parallel ? pools.map { $0.lowerBound(pivot) } : counts
            let firstCount = cuts.reduce(0, +)
            let firstBytes = zip(pools, cuts).map { Int($0.offset($1)) }.reduce(0, +)
            // Merged strings are written as if every one were distinct: the first run's end
            // offsets from byte 8 and its bytes from `dataStart`, the second run's after room for
            // the whole first run. Both move down into place at the end.
            let dataStart = 4 + (total + 1) * 4
            return [UInt8](unsafeUninitializedCapacity: dataStart + totalBytes) { out, initialized in
                let base = UncheckedSendable(value: UnsafeMutableRawPointer(out.baseAddress!))
                let shared = UncheckedSendable(value: (pools, finals, cuts))
                let second = !parallel ? nil : BackgroundTask {
                    let (pools, finals, cuts) = shared.value
                    return mergeRun(pools, zip(cuts, pools).map { $0..<$1.count }, finals: finals,
                                    offsets: base.value + 8 + firstCount * 4, data: base.value + dataStart + firstBytes)
                }
                let first = mergeRun(pools, cuts.map { 0..<$0 }, finals: finals, offsets: base.value + 8, data: base.value + dataStart)
                let rest = second?.finished() ?? (count: 0, length: 0)
                let out = base.value, count = first.count + rest.count
                for id in 0..<rest.count {
                    let end = out.loadUnaligned(fromByteOffset: 8 + (firstCount + id) * 4, as: UInt32.self).littleEndian
                    out.storeBytes(of: (end + UInt32(first.length)).littleEndian, toByteOffset: 8 + (first.count + id) * 4, as: UInt32.self)
                }
                out.storeBytes(of: UInt32(count).littleEndian, toByteOffset: 0, as: UInt32.self)
                out.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
                let packedStart = 4 + (count + 1) * 4
                memmove(out + packedStart, out + dataStart, first.length)
                memmove(out + packedStart + first.length, out + dataStart + firstBytes, rest.length)
                initialized = packedStart + first.length + rest.length
                firstRunCount = UInt32(first.count)
            }
        }
        // Provisional → sorted → merged, in place (the second run's ids follow the first run's),
        // a thread per pool.
        var remaps: [[UInt32]] = []
        for i in pools.indices {
            remaps.append(pools[i].remap)
            pools[i].remap = []  // `remaps[i]` is now the only reference: rewritten in place
        }
        let shared = UncheckedSendable(value: (finals, cuts, firstRunCount))
        _ = Concurrently.update(&remaps) { pool, remap in
            let (finals, cuts, firstRunCount) = shared.value
            let final = finals[pool], cut = cuts[pool]
            remap.withUnsafeMutableBufferPointer { remap in
                for id in remap.indices {
                    let sorted = Int(remap[id])
                    remap[id] = final[sorted] &+ (sorted < cut ? 0 : firstRunCount)
                }
            }
        }
        return (bytes, remaps)
    }

    /// Merges `ranges` of sorted `pools` (`ranges[i]` of `pools[i]`): writes the merged strings'
    /// end offsets (from 0) to `offsets` and their bytes to `data`, and the merged id (from 0)
    /// of every string of the ranges to `finals`. Returns how many strings and bytes it wrote.
    ///
    /// Heads are compared by their 8-byte prefixes (`PackedKey`), their bytes only on a tie. The
    /// loop runs over buffers, not arrays: it runs once per string (millions), and the arrays'
    /// accesses retained and released their storage each time.
    private static func mergeRun(_ pools: [StringPool], _ ranges: [Range<Int>], finals: [UnsafeMutableBufferPointer<UInt32>],
                                 offsets: UnsafeMutableRawPointer, data: UnsafeMutableRawPointer) -> (count: Int, length: Int) {
        let k = pools.count
        var heads = ranges.map(\.lowerBound), keys = [UInt64](repeating: 0, count: k), ties = [Int](repeating: 0, count: k)
        let ends = ranges.map(\.upperBound)
        for pool in 0..<k where heads[pool] < ends[pool] { keys[pool] = PackedKey.pack(pools[pool].bytes(UInt32(heads[pool]))) }
        var count = 0, length = 0
        pools.withUnsafeBufferPointer { pools in
            finals.withUnsafeBufferPointer { finals in
                ends.withUnsafeBufferPointer { ends in
                    heads.withUnsafeMutableBufferPointer { heads in
                        keys.withUnsafeMutableBufferPointer { keys in
                            ties.withUnsafeMutableBufferPointer { ties in
                                while true {
                                    // The least head, and every pool whose head it is.
                                    var tied = 0
                                    for pool in 0..<k where heads[pool] < ends[pool] {
                                        if tied > 0 {
                                            let least = ties[0]
                                            var order = keys[pool] < keys[least] ? -1 : keys[pool] > keys[least] ? 1 : 0
                                            if order == 0 {
                                                order = compare(pools[pool].bytes(UInt32(heads[pool])), pools[least].bytes(UInt32(heads[least])))
                                            }
                                            if order > 0 { continue }
                                            if order == 0 {
                                                ties[tied] = pool
                                                tied += 1
                                                continue
                                            }
                                        }
                                        ties[0] = pool
                                        tied = 1
                                    }
                                    if tied == 0 { break }
                                    let least = pools[ties[0]].bytes(UInt32(heads[ties[0]]))
                                    if least.count > 0 {
                                        (data + length).copyMemory(from: least.baseAddress!, byteCount: least.count)
                                        length += least.count
                                    }
                                    offsets.storeBytes(of: UInt32(length).littleEndian, toByteOffset: count * 4, as: UInt32.self)
                                    for pool in ties[0..<tied] {
                                        finals[pool][heads[pool]] = UInt32(count)
                                        heads[pool] += 1
                                        if heads[pool] < ends[pool] { keys[pool] = PackedKey.pack(pools[pool].bytes(UInt32(heads[pool]))) }
                                    }
                                    count += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return (count, length)
    }
}

/// LSD radix sort of `UInt64` keys carrying `UInt32` values, a byte per pass; passes where every
/// key has the same byte are skipped. Stable.
