import FieldGuideArtifact

/// The US civil ICAO 24-bit address block (A00001–ADF7C7) and N-numbers, computed both ways.
///
/// The FAA assigns each possible N-number one address, in N-number order: `N1` is `A00001`,
/// `N99999` is `ADF7C7`. So an address seen on the air gives its N-number even when no MASTER
/// row has it (a deregistered or reserved number, a registry older than the aircraft), and an
/// N-number gives its address.
///
/// The order: after the first digit 1–9, each position holds either an end, a suffix of one
/// or two letters (24 letters: no I or O), or a further digit; the fifth character may be a
/// letter or a digit. Each digit opens a bucket holding every N-number that continues it.
///
/// ```swift
/// USModeS.nNumber(address: "A00001")   // "N1"
/// USModeS.nNumber(address: "AC6CD2")   // "N90"
/// USModeS.address(nNumber: "n90")      // "AC6CD2"
/// USModeS.address(nNumber: "N0")       // nil: not a US N-number form
/// ```
public enum USModeS {
    /// The first and last addresses of the block.
    public static let first: UInt32 = 0xA0_0001
    public static let last: UInt32 = 0xAD_F7C7

    static let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)
    /// An end, 24 one-letter and 24 × 24 two-letter suffixes.
    static let suffixSize = 1 + 24 * 25
    /// Sizes of the bucket a digit opens at the 4th, 3rd, 2nd and 1st position after N.
    static let bucket4 = 1 + 24 + 10
    static let bucket3 = 10 * bucket4 + suffixSize
    static let bucket2 = 10 * bucket3 + suffixSize
    static let bucket1 = 10 * bucket2 + suffixSize

    /// The N-number of a US address (six hex digits, any case), or nil outside the block.
    public static func nNumber(address: String) -> String? {
        guard address.count == 6, let value = UInt32(address, radix: 16), value >= first, value <= last else { return nil }
        var rest = Int(value - first)
        var text = "N" + String(rest / bucket1 + 1)
        rest %= bucket1
        for size in [bucket2, bucket3, bucket4] {
            if rest < suffixSize { return text + suffix(rest) }
            rest -= suffixSize
            text += String(rest / size)
            rest %= size
        }
        if rest == 0 { return text }
        return text + (rest <= 24 ? String(UnicodeScalar(letters[rest - 1])) : String(rest - 25))
    }

    /// The address of a US N-number (`N905CJ`, `n905cj` or `905CJ`), as six upper-case hex
    /// digits, or nil when the text is not a valid N-number form.
    public static func address(nNumber: String) -> String? {
        guard let tail = validTail(nNumber) else { return nil }
        var value = Int(first) + (Int(tail[0] - 0x30) - 1) * bucket1
        let sizes = [bucket2, bucket3, bucket4]
        for index in 1..<tail.count {
            let c = tail[index]
            if index == 4 {
                value += isDigit(c) ? 1 + 24 + Int(c - 0x30) : 1 + letterIndex(c)!
            } else if let letter = letterIndex(c) {
                value += 1 + letter * 25 + (index + 1 < tail.count ? letterIndex(tail[index + 1])! + 1 : 0)
                break
            } else {
                value += suffixSize + Int(c - 0x30) * sizes[index - 1]
            }
        }
        return hex(UInt32(value))
    }

    /// A 24-bit address as six upper-case hex digits (`0xAC6CD2` → `"AC6CD2"`, `0x00A1B2` → `"00A1B2"`).
    static func hex(_ address: UInt32) -> String { AircraftSchema.hexDigits(address) }

    /// Whether the text has a US N-number's form: N, a digit 1–9, up to four more digits,
    /// then up to two letters (no I or O), five characters at most after the N.
    public static func isValid(nNumber: String) -> Bool { validTail(nNumber) != nil }

    /// The characters after the N, upper-cased, when they form a valid N-number.
    static func validTail(_ text: String) -> [UInt8]? {
        var tail = Array(text.uppercased().utf8)
        if tail.first == UInt8(ascii: "N") { tail.removeFirst() }
        guard (1...5).contains(tail.count), let head = tail.first, head >= UInt8(ascii: "1"), head <= UInt8(ascii: "9") else { return nil }
        let digits = tail.prefix { isDigit($0) }.count
        let suffix = tail.dropFirst(digits)
        guard suffix.count <= 2, suffix.allSatisfy({ letterIndex($0) != nil }) else { return nil }
        return tail
    }

    private static func suffix(_ offset: Int) -> String {
        guard offset > 0 else { return "" }
        let first = String(UnicodeScalar(letters[(offset - 1) / 25]))
        let second = (offset - 1) % 25
        return second == 0 ? first : first + String(UnicodeScalar(letters[second - 1]))
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    private static func letterIndex(_ c: UInt8) -> Int? { letters.firstIndex(of: c) }
}
