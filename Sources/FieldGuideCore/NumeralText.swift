extension StringProtocol {
    /// Whether the text is written as a decimal number: digits, with only a sign, `.` and an
    /// exponent besides (`52.5`, `-.5`, `1.2e3`). `Double(_:)` also takes `nan`, `inf`,
    /// `infinity` and hexadecimal (`0x1p3` is 8.0): spellings no source writes for a frequency,
    /// a position or a limit, which would otherwise pass as values. Readers check this before
    /// `Double(_:)`; what passes may still not parse (`1-2`), which `Double(_:)` then refuses.
    ///
    /// ```swift
    /// "-13.404954".isNumeral   // true
    /// "0x1p3".isNumeral        // false
    /// ```
    public var isNumeral: Bool {
        var digits = false
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return false
            }
        }
        return digits
    }
}
