import CPaddingFilter

/// Drops the spaces that end each field of an unquoted file, chunk by chunk: a run of spaces
/// followed by the delimiter or a line end is dropped, any other run is kept. A line holding
/// nothing but spaces keeps them, so it still reads as a record (an empty line reads as none).
/// A run at the end of a chunk is held back until the next chunk shows what follows it.
///
/// ```swift
/// var filter = PaddingFilter(delimiter: UInt8(ascii: ","), maxRun: 65_536)
/// filter.filter(chunk, count: n)    // "N90  ,CESSNA ,\r\n" → "N90,CESSNA,\r\n"
/// ```
struct PaddingFilter {
    private let delimiter: UInt8
    /// Whether whole 64-byte blocks go through the C kernel (`CPaddingFilter`, where the
    /// processor has AVX-512 VBMI2) before the byte loop below takes the rest.
    let vectorized: Bool
    /// Spaces read but not yet written: their fate depends on the byte after them.
    private var pending = 0
    /// The last byte written (a line feed before the first: the input starts a line).
    private var lastWritten: UInt8 = 0x0A
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    /// The longest run of spaces the record bound allows.
    private let maxRun: Int
    /// Where, in the last chunk's output, the first run of spaces longer than `maxRun` ended
    /// (the position of the byte after it), or nil.
    private(set) var overlongRunEnd: Int?

    /// `vectorized: false` keeps to the byte loop (the tests compare the two).
    init(delimiter: UInt8, maxRun: Int, vectorized: Bool = fieldguide_padding_can_vectorize() != 0) {
        self.delimiter = delimiter
        self.vectorized = vectorized
        self.maxRun = maxRun
        capacity = 1 << 16
        buffer = .allocate(capacity: capacity)
    }

    mutating func release() { buffer.deallocate() }

    /// Spaces read but not yet written (their fate waits on the next byte).
    var heldSpaces: Int { pending }

    /// The chunk without its padding; valid until the next call.
    ///
    /// Eight bytes at a time where it can: a word's leading spaces, or its bytes up to the next
    /// space, in one step (found with the usual zero-byte bit tricks on the word XOR spaces).
    mutating func filter(_ chunk: UnsafeRawPointer, count: Int) -> UnsafeRawBufferPointer {
        // Room for the held-back spaces, and for a whole word stored where fewer bytes count.
        if count + pending + 8 > capacity {
            buffer.deallocate()
            while capacity < count + pending + 8 { capacity *= 2 }
            buffer = .allocate(capacity: capacity)
        }
        let input = chunk.assumingMemoryBound(to: UInt8.self)
        let output = buffer
        let spaces: UInt64 = 0x2020_2020_2020_2020, ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var pending = self.pending, i = 0, o = 0, overlong = -1
        if vectorized && count >= 64 {
            var state = fieldguide_padding_state(pending: pending, written: 0, last: lastWritten, delimiter: delimiter,
                                                 max_run: maxRun, overlong: -1)
            i = fieldguide_padding_filter_blocks(input, count, output, &state)
            (pending, o, overlong) = (state.pending, state.written, state.overlong)
        }
        while i < count {
            if i &+ 8 <= count {
                let word = UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self)
                let x = word ^ spaces  // zero bytes where the word has spaces
                let leadingSpaces = x.trailingZeroBitCount &>> 3
                if leadingSpaces > 0 {
                    pending &+= leadingSpaces
                    i &+= leadingSpaces
                    continue
                }
                if pending > 0 {
                    if pending > maxRun && overlong < 0 { overlong = o }
                    writeHeldSpaces(pending, before: UInt8(truncatingIfNeeded: word), output, &o)
                    pending = 0
                }
                // The bytes before the word's first space (its lowest zero byte in `x`; the bit
                // trick is exact for the lowest one). At least one: byte 0 is not a space.
                let zeros = (x &- ones) & ~x & highs
                let run = zeros == 0 ? 8 : zeros.trailingZeroBitCount &>> 3
                UnsafeMutableRawPointer(output + o).storeBytes(of: word, as: UInt64.self)
                o &+= run
                i &+= run
                continue
            }
            let byte = input[i]
            i &+= 1
            if byte == 0x20 {
                pending &+= 1
                continue
            }
            if pending > 0 {
                if pending > maxRun && overlong < 0 { overlong = o }
                writeHeldSpaces(pending, before: byte, output, &o)
                pending = 0
            }
            output[o] = byte
            o &+= 1
        }
        self.pending = pending
        overlongRunEnd = overlong < 0 ? nil : overlong
        if o > 0 { lastWritten = output[o - 1] }
        return UnsafeRawBufferPointer(start: output, count: o)
    }

    /// Writes `count` held-back spaces unless `next` shows they end a field: it is the delimiter,
    /// or a line end on a line that has more than spaces.
    @inline(__always)
    private func writeHeldSpaces(_ count: Int, before next: UInt8, _ output: UnsafeMutablePointer<UInt8>, _ o: inout Int) {
        if next == delimiter { return }
        if Self.isLineEnd(next) && !Self.isLineEnd(o > 0 ? output[o - 1] : lastWritten) { return }
        (output + o).update(repeating: 0x20, count: count)
        o &+= count
    }

    /// At the end of the input: the held-back spaces of a last line that holds nothing else
    /// (they are its only field), else none (they ended the last field).
    mutating func finish() -> Int {
        defer { pending = 0 }
        return Self.isLineEnd(lastWritten) ? pending : 0
    }

    private static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
}
