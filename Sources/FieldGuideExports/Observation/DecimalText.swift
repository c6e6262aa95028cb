import FieldGuideCore

extension Double {
    /// `text` as a number: exactly what `Double(text)` gives, with a short path for the plain
    /// decimals exports are full of (`52.520008`, `-0.5`, `1724.6`).
    ///
    /// Up to 15 digits with an optional `-` and one `.` between digits are the integer they
    /// spell divided by a power of ten: both are exact doubles (below 2^53, at most 10^15), so
    /// one correctly rounded division gives the correctly rounded value (Clinger's fast path),
    /// the value `strtod` (behind `Double(text)`) finds with its multi-precision arithmetic,
    /// which took several hundred instructions a number. Anything else goes to `Double(text)`.
    ///
    /// ```swift
    /// Double(decimal: "-13.404954")   // -13.404954
    /// Double(decimal: "1e3")          // 1000.0 (through Double(_:))
    /// ```
    init?(decimal text: some StringProtocol) {
        // The bytes in place: walking `utf8` as a generic sequence cost about 500 instructions a number.
        let short = text.utf8.withContiguousStorageIfAvailable { Self.shortDecimal($0) } ?? {
            var string = String(text)   // a bridged string: made contiguous
            return string.withUTF8 { Self.shortDecimal($0) }
        }()
        if let value = short { self = value } else if let value = Double(text) { self = value } else { return nil }
    }

    /// `text` as a number when it is written as one (`isNumeral`: digits with an optional sign,
    /// `.` and exponent), read by `init(decimal:)`; nil for the other spellings `Double(_:)`
    /// takes (`nan`, `inf`, hexadecimal `0x1p3`), which no export writes for a position or an
    /// elevation.
    ///
    /// ```swift
    /// Double(numeral: "-13.404954")   // -13.404954
    /// Double(numeral: "0x1p3")        // nil (Double("0x1p3") is 8.0)
    /// ```
    init?(numeral text: some StringProtocol) {
        guard text.isNumeral else { return nil }
        self.init(decimal: text)
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// `-?D+(.D+)?` with at most 15 digits in all, or nil. An index loop over the bytes in place
    /// with little but the digit test in it: this runs two or three times per GPX point.
    static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = bytes.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var mantissa: UInt64 = 0, digits = 0, point = -1   // point: digits before the `.`, -1 without one
        while index < bytes.count {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)   // wraps only past 15 digits, refused below
                digits += 1
            } else if byte == UInt8(ascii: "."), point < 0, digits > 0 {
                point = digits
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 15, point < digits else { return nil }
        let value = Double(mantissa) / powersOfTen[point < 0 ? 0 : digits - point]
        return negative ? -value : value
    }
}
