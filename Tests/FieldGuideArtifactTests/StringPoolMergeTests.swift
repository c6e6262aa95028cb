import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideWorkers
import Foundation
import Testing

/// Pools interned apart and merged are the pool of one builder given every string.
@Suite("String pool: merging sorted pools")
struct StringPoolMergeTests {
    /// Interns each group into a builder of its own, merges the sorted pools (the two-run path
    /// too), and checks the bytes against one builder of the union and every id's remap.
    /// Returns the merged pool's strings.
    @discardableResult
    func checkMerge(_ groups: [[String]]) throws -> [String] {
        var union = StringPoolBuilder()
        for word in groups.joined().reversed() { _ = union.intern(word) }
        let expected = union.finish().bytes
        var strings: [String] = []
        for threshold in [StringPoolBuilder.parallelSortThreshold, 0] {
            var ids: [[UInt32]] = []
            var pools: [(bytes: [UInt8], remap: [UInt32])] = []
            for words in groups {
                var builder = StringPoolBuilder(expectedStrings: words.count)
                ids.append(words.map { builder.intern($0) })
                pools.append(builder.finish())
            }
            let (bytes, remaps) = StringPoolBuilder.merge(pools, parallelThreshold: threshold)
            #expect(bytes == expected, "merged with threshold \(threshold)")
            #expect(remaps.count == groups.count)
            try bytes.withUnsafeBytes { raw in
                let reader = try StringPool(raw, path: "merged")
                for (group, words) in groups.enumerated() {
                    #expect(remaps[group][0] == 0)  // every builder's "" is the merged ""
                    for (word, id) in zip(words, ids[group]) { #expect(reader.string(remaps[group][Int(id)]) == word) }
                }
                strings = (0..<reader.count).map { reader.string(UInt32($0)) }
            }
        }
        return strings
    }

    @Test("disjoint pools interleave in byte order")
    func disjoint() throws {
        let strings = try checkMerge([["apple", "cherry", "fig"], ["banana", "date", "elderberry"]])
        #expect(strings == ["", "apple", "banana", "cherry", "date", "elderberry", "fig"])
    }

    @Test("strings in both pools appear once, and both pools' ids reach them")
    func overlapping() throws {
        let strings = try checkMerge([["N90", "CESSNA", "N1", "PIPER"], ["CESSNA", "N900", "N90", "BOEING"]])
        #expect(strings == ["", "BOEING", "CESSNA", "N1", "N90", "N900", "PIPER"])
    }

    @Test("empty pools hold only the empty string, id 0")
    func empty() throws {
        #expect(try checkMerge([[], []]) == [""])
        #expect(try checkMerge([[""], [""], []]) == [""])
    }

    @Test("one empty pool leaves the other as it was")
    func oneEmpty() throws {
        #expect(try checkMerge([[], ["b", "a"]]) == ["", "a", "b"])
        #expect(try checkMerge([["b", "", "a"], []]) == ["", "a", "b"])
    }

    @Test("a single pool comes back as it is")
    func single() {
        var builder = StringPoolBuilder()
        _ = builder.intern("x")
        let pool = builder.finish()
        let merged = StringPoolBuilder.merge([pool])
        #expect(merged.bytes == pool.bytes && merged.remaps == [pool.remap])
    }

    @Test("many pools of many strings: shared 8-byte prefixes, long and non-ASCII strings, NUL bytes")
    func many() throws {
        let words = (0..<30_000).map { i -> String in
            switch i % 5 {
            case 0: return "SAME PREFIX \(i % 7_000)"
            case 1: return "\(i * 7_919 % 10_007)"
            case 2: return "Ünïcödé \(i % 3_000)"
            case 3: return "ABCDEFGH\u{0}\(i % 1_000)"
            default: return String(repeating: "LONG ", count: i % 9) + "\(i % 5_000)"
            }
        }
        // Overlapping groups of different sizes, one of them large.
        try checkMerge([Array(words[0..<20_000]), Array(words[15_000..<25_000]), Array(words[24_000...]), ["", "Z"]])
    }
}

@Suite("Concurrently")
struct ConcurrentlyTests {
    struct Failure: Error, Equatable { let index: Int }

    @Test("run hands back every call's value or error, in order")
    func run() throws {
        let outcomes = Concurrently.run(4) { index throws(Failure) -> Int in
            if index == 2 { throw Failure(index: index) }
            return index * 10
        }
        #expect(outcomes.count == 4)
        #expect(try [0, 1, 3].map { try outcomes[$0].get() } == [0, 10, 30])
        #expect(throws: Failure(index: 2)) { try outcomes[2].get() }
        #expect(Concurrently.run(0) { $0 }.isEmpty)
    }

    @Test("update changes every value in place, on threads of their own")
    func update() {
        var values = [[1, 2], [3], []]
        let sums = Concurrently.update(&values) { index, value in
            value.append(index)
            return value.reduce(0, +)
        }.map { $0.get() }
        #expect(values == [[1, 2, 0], [3, 1], [2]])
        #expect(sums == [3, 4, 2])
    }
}
