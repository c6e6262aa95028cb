/// The EBD fields the aggregation reads, checked and decoded straight from their bytes.
///
/// These rules are the contract both engines keep (`pipelines/spark/ebd_barcharts.py` mirrors
/// each one): a value that breaks one rejects its row in either engine.
///
/// ```swift
/// EBDFields.period(ofDate: "2012-09-16")   // 35: September, days 15–21
/// EBDFields.checklistNumber("S11593649", letter: "S")   // 11593649
/// ```
public enum EBDFields {
    /// A checklist or group number has at most this many digits (no leading zero).
    public static let maxIdentifierDigits = 11
    /// A region code has at most this many bytes: letters, digits and `-` (US-NY-061).
    public static let maxRegionCodeBytes = 16

    /// The bar-chart period (1–48) of a calendar date `YYYY-MM-DD`: each month in four,
    /// days 1–7, 8–14, 15–21 and 22 to the end. Nil for anything else (2023-02-29 included).
    public static func period(ofDate field: UnsafeRawBufferPointer) -> Int? {
        guard let (_, month, day) = calendarDate(field) else { return nil }
        return (month - 1) * 4 + min((day - 1) / 7, 3) + 1
    }

    /// A calendar date `YYYY-MM-DD` read from its ten bytes, digits only (no sign, no space):
    /// nil for anything else (2023-02-29 included). The Status & Trends runs' dates are read
    /// with it too (`SpeciesSeasonRow.monthDay`).
    static func calendarDate(_ field: UnsafeRawBufferPointer) -> (year: Int, month: Int, day: Int)? {
        guard field.count == 10, field[4] == UInt8(ascii: "-"), field[7] == UInt8(ascii: "-"),
              let year = digits(field, 0..<4), let month = digits(field, 5..<7), let day = digits(field, 8..<10),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return (year, month, day)
    }

    /// `period(ofDate:)` for text.
    public static func period(ofDate text: String) -> Int? {
        var text = text
        return text.withUTF8 { period(ofDate: UnsafeRawBufferPointer($0)) }
    }

    /// The days of a month in the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The number of an eBird identifier `S11593649` (letter `S`) or `G300943` (letter `G`):
    /// the letter, then 1 to 11 digits without a leading zero. Nil otherwise.
    public static func checklistNumber(_ field: UnsafeRawBufferPointer, letter: UInt8) -> UInt64? {
        guard field.count >= 2, field.count <= maxIdentifierDigits + 1, field[0] == letter, field[1] != UInt8(ascii: "0"),
              let number = digits(field, 1..<field.count) else { return nil }
        return UInt64(number)
    }

    /// `checklistNumber(_:letter:)` for text.
    public static func checklistNumber(_ text: String, letter: Character) -> UInt64? {
        var text = text
        return text.withUTF8 { checklistNumber(UnsafeRawBufferPointer($0), letter: letter.asciiValue ?? 0) }
    }

    /// An eBird region code: 1–16 bytes of ASCII letters, digits and `-` (`US`, `US-NY`, `US-NY-061`).
    public static func isRegionCode(_ field: UnsafeRawBufferPointer) -> Bool {
        guard field.count >= 1, field.count <= maxRegionCodeBytes else { return false }
        for byte in field {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): continue
            default: return false
            }
        }
        return true
    }

    /// TAXONOMIC ORDER: 1 to 9 digits.
    public static func taxonomicOrder(_ field: UnsafeRawBufferPointer) -> Int? {
        guard field.count >= 1, field.count <= 9 else { return nil }
        return digits(field, 0..<field.count)
    }

    /// A usable COMMON NAME: not empty, valid UTF-8, and no U+FFFD (what a decoder leaves of
    /// bytes that were not UTF-8: the Spark engine sees only that).
    public static func isCommonName(_ field: UnsafeRawBufferPointer) -> Bool {
        guard !field.isEmpty else { return false }
        var iterator = field.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar.value == 0xFFFD { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Whether a flag field is exactly `1` (ALL SPECIES REPORTED, APPROVED).
    @inline(__always)
    public static func isOne(_ field: UnsafeRawBufferPointer) -> Bool { field.count == 1 && field[0] == UInt8(ascii: "1") }

    /// The decimal number written by `field[range]`, digits only; nil for anything else.
    @inline(__always)
    static func digits(_ field: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var value = 0
        for i in range {
            let digit = Int(field[i]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value &* 10 &+ digit
        }
        return range.isEmpty ? nil : value
    }
}
