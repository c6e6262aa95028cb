@testable import FieldGuideCSV
import Foundation
import Testing
import TestSupport

/// The padding filter's block kernel (`CPaddingFilter`, AVX-512 VBMI2) against its byte loop:
/// the same bytes out, the same held spaces, the same over-long run reported at the same place,
/// chunk by chunk, on the FAA files in `input/` and `../shared` and on random text made of
/// spaces, delimiters, line ends and letters.
@Suite("Padding filter: the block kernel writes what the byte loop writes")
struct PaddingFilterTests {
    static let kernelAvailable = {
        var probe = PaddingFilter(delimiter: 0x2C, maxRun: 1)
        defer { probe.release() }
        return probe.vectorized
    }()

    /// What a filter makes of `bytes` fed in chunks of `sizes` (cycled): the output, each
    /// chunk's over-long run end (shifted to a position in the whole output), the spaces
    /// `finish()` gives.
    struct Run: Equatable {
        var output: [UInt8] = []
        var overlong: [Int] = []
        var finished = 0
    }

    static func run(_ bytes: [UInt8], sizes: [Int], maxRun: Int, vectorized: Bool) -> Run {
        var filter = PaddingFilter(delimiter: 0x2C, maxRun: maxRun, vectorized: vectorized)
        defer { filter.release() }
        var result = Run(), at = 0, next = 0
        bytes.withUnsafeBytes { all in
            while at < all.count {
                let size = min(sizes[next % sizes.count], all.count - at)
                next += 1
                let kept = filter.filter(all.baseAddress! + at, count: size)
                if let end = filter.overlongRunEnd { result.overlong.append(result.output.count + end) }
                result.output += kept
                at += size
            }
        }
        result.finished = filter.finish()
        return result
    }

    static func expectSame(_ bytes: [UInt8], sizes: [Int], maxRun: Int, _ what: String) {
        let loop = run(bytes, sizes: sizes, maxRun: maxRun, vectorized: false)
        let kernel = run(bytes, sizes: sizes, maxRun: maxRun, vectorized: true)
        #expect(kernel == loop, "\(what), chunks \(sizes), max run \(maxRun)")
    }

    @Test("the FAA files of input/ and ../shared, in chunks of several sizes", .enabled(if: kernelAvailable, "needs AVX-512 VBMI2"))
    func faaFiles() throws {
        var files = ["ACFTREF.txt", "DEREG.txt", "ENGINE.txt", "MASTER.txt", "RESERVED.txt"].map { TestPaths.input.appendingPathComponent("faa/" + $0) }
        files += ["faa/ACFTREF.sample.txt", "faa/MASTER.sample.txt", "faa/ENGINE.txt"].compactMap(TestPaths.shared)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            for sizes in [[1 << 16], [64], [100, 63, 129, 1], [4_099]] {
                Self.expectSame(bytes, sizes: sizes, maxRun: 65_536, file.lastPathComponent)
            }
            // The whole file in one chunk: the padding is really dropped.
            let filtered = Self.run(bytes, sizes: [bytes.count], maxRun: 65_536, vectorized: true).output
            #expect(filtered.count < bytes.count && !filtered.isEmpty, "\(file.lastPathComponent)")
        }
    }

    @Test("random text: spaces, delimiters, CR, LF and letters, runs across blocks and chunks, short and over-long bounds",
          .enabled(if: kernelAvailable, "needs AVX-512 VBMI2"))
    func randomText() {
        // A seeded linear congruential generator (its high bits), so a failing round replays.
        var state: UInt64 = 20_261_129
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet: [UInt8] = Array(repeating: 0x20, count: 12) + [0x2C, 0x2C, 0x0A, 0x0D, 0x41, 0x42, 0x43, 0x22, 0xC3, 0xA9]
        for round in 0..<400 {
            var bytes: [UInt8] = []
            let length = Int(next() % 3_000)
            while bytes.count < length {
                // Now and then a long run of spaces, past a block and past the short bound.
                if next() % 40 == 0 {
                    bytes += [UInt8](repeating: 0x20, count: Int(next() % 300))
                } else {
                    bytes.append(alphabet[Int(next() % UInt64(alphabet.count))])
                }
            }
            let sizes = (0..<3).map { _ in 1 + Int(next() % 200) }
            for maxRun in [3, 70, 65_536] {
                Self.expectSame(bytes, sizes: sizes, maxRun: maxRun, "round \(round)")
            }
        }
    }

    @Test("lines of nothing but spaces, runs ending at block edges, a file of spaces alone", .enabled(if: kernelAvailable, "needs AVX-512 VBMI2"))
    func edges() {
        func spaces(_ n: Int) -> [UInt8] { [UInt8](repeating: 0x20, count: n) }
        func text(_ string: String) -> [UInt8] { Array(string.utf8) }
        let line: [UInt8] = text("N1234") + spaces(11) + text(",") + spaces(30) + text(",\r\n")
        let cases: [[[UInt8]]] = [
            [spaces(64), text("\n"), spaces(130), text("\r\n"), text("A"), spaces(62), text(",")],
            [text("A"), spaces(63), text(","), spaces(64), text("\n")],
            [spaces(63), text("B"), spaces(64), text("C")],
            [spaces(200)],
            [text("\n"), spaces(128)],
            [[UInt8]](repeating: line, count: 40),
        ]
        for (index, parts) in cases.enumerated() {
            let bytes = parts.flatMap { $0 }
            for sizes in [[bytes.count], [64], [65], [1], [128, 3]] {
                Self.expectSame(bytes, sizes: sizes, maxRun: 65_536, "case \(index)")
                Self.expectSame(bytes, sizes: sizes, maxRun: 10, "case \(index)")
            }
        }
    }
}
