/// U.S. civil registration marks and the ICAO 24-bit addresses the FAA assigns to them.
///
/// A mark (the N-number without its `N`) is 1-5 characters: a digit 1-9, more digits, then at
/// most two letters other than I and O. There are exactly 915,399 of them, and the FAA maps
/// them one-to-one, in a fixed order, onto the addresses A00001…ADF7C7: N1 is A00001, N1A is
/// A00002, N1AA A00003 … N99999 ADF7C7. Real MASTER rows follow this mapping (N50 → A63796,
/// octal 51433626), so the generator uses it too: every generated aircraft gets a distinct,
/// realistic address, and MODE S CODE and MODE S CODE HEX come from the same number.
///
/// The order, under one leading digit: the mark itself; then its letter suffixes
/// (A, AA, AB … AZ, B, BA … ZZ: 24 × 25 = 600); then each next digit 0-9 with everything below it.
enum NNumber {
    /// Every valid mark, in address order.
    static let count = 9 * bucket1

    /// The first address (the one of N1).
    static let firstAddress = 0xA0_0001

    /// The 24 letters a mark may end with: A-Z without I and O.
    static let letters: [UInt8] = Array("ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)

    /// The mark itself and its 600 letter suffixes.
    private static let suffixes = 1 + 24 * 25
    /// What follows a fourth digit: nothing, one letter, or a fifth digit.
    private static let bucket4 = 1 + 24 + 10
    private static let bucket3 = suffixes + 10 * bucket4
    private static let bucket2 = suffixes + 10 * bucket3
    private static let bucket1 = suffixes + 10 * bucket2

    /// The mark with address `firstAddress + index`, for `index` in `0..<count`.
    static func mark(_ index: Int) -> [UInt8] {
        precondition((0..<count).contains(index), "N-number index \(index) out of range")
        var mark: [UInt8] = [0x31 + UInt8(index / bucket1)]
        var rest = index % bucket1
        // Below the 1st, 2nd and 3rd digit: suffixes, then the next digit's buckets.
        for below in [bucket2, bucket3, bucket4] {
            if rest == 0 { return mark }
            if rest < suffixes {
                let letter = (rest - 1) / 25, second = (rest - 1) % 25
                mark.append(letters[letter])
                if second > 0 { mark.append(letters[second - 1]) }
                return mark
            }
            rest -= suffixes
            mark.append(0x30 + UInt8(rest / below))
            rest %= below
        }
        // Below the 4th digit: nothing, one letter (1…24) or a fifth digit (25…34).
        if rest == 0 { return mark }
        mark.append(rest <= 24 ? letters[rest - 1] : 0x30 + UInt8(rest - 25))
        return mark
    }

    /// The ICAO address of the mark with `index`.
    static func address(_ index: Int) -> Int { firstAddress + index }
}
