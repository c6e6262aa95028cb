import FieldGuideDiagnostics
import Foundation

/// When an observation was made: the civil date and time as written, its zone when the export
/// gave one, and the UTC instant when that is known.
///
/// ```swift
/// let t = try ObservationTime.iso8601("2021-03-24T13:07:29+01:00")
/// t.utc        // "2021-03-24T12:07:29Z"
/// t.zone       // "+01:00"
/// let local = try ObservationTime.iso8601("2020-01-01T17:28:23")
/// local.utc    // nil
/// local.zone   // "local, no zone"
/// ```
public struct ObservationTime: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the export wrote, untouched (`11-21-2015 04:15 PM`).
    public var original: String
    /// The civil date and time in the export's own frame, ISO 8601 without zone, as precise as
    /// written (`2015-11-21T16:15`, `2023-11-08`, `2020-01-01T17:28:25.729626112`).
    public var local: String
    /// The zone as written (`Z`, `+01:00`, `-07:00`), or `local, no zone`.
    public var zone: String
    /// The instant in UTC (`2021-03-24T12:07:29Z`, fraction kept), when the zone is known and the
    /// time has at least minutes.
    public var utc: String?

    public static let noZone = "local, no zone"

    public var description: String { utc ?? "\(local) (\(zone))" }

    /// Fields of a parsed civil time.
    struct Civil {
        var year: Int, month: Int? = nil, day: Int? = nil
        var hour: Int? = nil, minute: Int? = nil, second: Int? = nil
        var fraction = ""          // digits after the decimal point
        var offsetMinutes: Int?    // nil: no zone
        var zoneText = ObservationTime.noZone
    }

    /// XMP / GPX / plist dates: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mm[:ss[.f…]][Z|±hh:mm]`.
    public static func iso8601(_ text: String) throws(LocatedError) -> ObservationTime {
        if let time = zulu(text) { return time }
        return try scanned(text)
    }

    /// `iso8601` through the scanner, every form.
    static func scanned(_ text: String) throws(LocatedError) -> ObservationTime {
        var scanner = DigitScanner(text)
        var civil = Civil(year: try scanner.number(4, text))
        if scanner.take("-") {
            civil.month = try scanner.number(2, text)
            if scanner.take("-") { civil.day = try scanner.number(2, text) }
        }
        if civil.day != nil, scanner.take("T") || scanner.take(" ") {
            civil.hour = try scanner.number(2, text)
            guard scanner.take(":") else { throw timeError(text) }
            civil.minute = try scanner.number(2, text)
            if scanner.take(":") {
                civil.second = try scanner.number(2, text)
                if scanner.take(".") || scanner.take(",") {
                    civil.fraction = scanner.digits()
                    guard !civil.fraction.isEmpty else { throw timeError(text) }
                }
            }
            if scanner.take("Z") {
                civil.offsetMinutes = 0
                civil.zoneText = "Z"
            } else if let sign = scanner.peek, sign == "+" || sign == "-" {
                scanner.advance()
                let hours = try scanner.number(2, text)
                _ = scanner.take(":")
                let minutes = try scanner.number(2, text)
                guard hours <= 14, minutes < 60 else { throw timeError(text) }
                civil.offsetMinutes = (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
                civil.zoneText = "\(sign)\(two(hours)):\(two(minutes))"
            }
        }
        guard scanner.atEnd else { throw timeError(text) }
        return try make(civil, original: text)
    }

    /// The form nearly every GPX point writes, `YYYY-MM-DDThh:mm:ss[.f…]Z`, read from the bytes at
    /// fixed offsets; nil for anything else (another form, or a field out of range), which the
    /// scanner then reads or rejects with its own message. Exists for speed: the scanner's array,
    /// fraction string and two written strings cost about 3,000 instructions per point. In this
    /// form the UTC instant is the text itself and the local time is the text without its `Z`,
    /// exactly what the scanner's path writes (ObservationTimeFastPathTests holds it to that).
    static func zulu(_ original: String) -> ObservationTime? {
        var text = original      // `withUTF8` needs a variable: it makes a bridged string contiguous
        return text.withUTF8 { bytes -> ObservationTime? in
            guard isZulu(bytes) else { return nil }
            let local = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<bytes.count - 1]), as: UTF8.self)
            return ObservationTime(original: original, local: local, zone: "Z", utc: original)
        }
    }

    /// Whether `bytes` are the form `zulu` reads, every field in range.
    private static func isZulu(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count >= 20, bytes[count - 1] == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return false }
        func digits(_ start: Int, _ width: Int) -> Int? {
            var value = 0
            for index in start..<start + width {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
              let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month, year), hour <= 23, minute <= 59, second <= 60 else { return false }
        // Past the seconds: nothing, or `.` and at least one digit, then the `Z`.
        return count == 20 || (bytes[19] == UInt8(ascii: ".") && count > 21 && allDigits(bytes[20..<count - 1]))
    }

    /// Whether `iso8601(text)` reads the text (it throws otherwise), without making its strings
    /// when the text is of the Zulu form: a plist `<date>` is checked once as it is read and
    /// read again by its record.
    static func isISO8601(_ text: String) -> Bool {
        var bytes = text
        return bytes.withUTF8(isZulu) || (try? scanned(text)) != nil
    }

    /// Every byte an ASCII digit (a fraction, of any length).
    private static func allDigits(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.allSatisfy { $0 &- 48 < 10 }
    }

    /// eBird and capture CSV: a date (`2025-11-24` or `11-21-2015`) and an optional time
    /// (`09:07 AM`, `16:30:47`), with no zone.
    public static func localDate(_ date: String, time: String) throws(LocatedError) -> ObservationTime {
        let original = time.isEmpty ? date : "\(date) \(time)"
        var scanner = DigitScanner(date)
        var civil: Civil
        if date.utf8.count == 10, Array(date.utf8)[2] == UInt8(ascii: "-") {            // MM-DD-YYYY
            let month = try scanner.number(2, original)
            guard scanner.take("-") else { throw timeError(original) }
            let day = try scanner.number(2, original)
            guard scanner.take("-") else { throw timeError(original) }
            civil = Civil(year: try scanner.number(4, original), month: month, day: day)
        } else {
            civil = Civil(year: try scanner.number(4, original))
            guard scanner.take("-") else { throw timeError(original) }
            civil.month = try scanner.number(2, original)
            guard scanner.take("-") else { throw timeError(original) }
            civil.day = try scanner.number(2, original)
        }
        guard scanner.atEnd else { throw timeError(original) }
        if !time.isEmpty {
            var t = DigitScanner(time)
            var hour = try t.number(2, original)
            guard t.take(":") else { throw timeError(original) }
            civil.minute = try t.number(2, original)
            if t.take(":") { civil.second = try t.number(2, original) }
            if t.take(" ") {
                let meridiem = t.rest.uppercased()
                guard (1...12).contains(hour), meridiem == "AM" || meridiem == "PM" else { throw timeError(original) }
                hour = hour % 12 + (meridiem == "PM" ? 12 : 0)
            } else {
                guard t.atEnd else { throw timeError(original) }
            }
            civil.hour = hour
        }
        return try make(civil, original: original)
    }

    private static func make(_ c: Civil, original: String) throws(LocatedError) -> ObservationTime {
        if let month = c.month, !(1...12).contains(month) { throw timeError(original, "month \(month) out of range") }
        if let day = c.day, let month = c.month, !(1...daysIn(month, c.year)).contains(day) {
            throw timeError(original, "day \(day) out of range")
        }
        if let hour = c.hour, hour > 23 { throw timeError(original, "hour \(hour) out of range") }
        if let minute = c.minute, minute > 59 { throw timeError(original, "minute \(minute) out of range") }
        if let second = c.second, second > 60 { throw timeError(original, "second \(second) out of range") }
        var clock: (hour: Int, minute: Int)?
        if let hour = c.hour, let minute = c.minute { clock = (hour, minute) }
        let local = iso(c.year, c.month, c.day, clock, c.second, c.fraction, zulu: false)
        var utc: String?
        if let offset = c.offsetMinutes, let month = c.month, let day = c.day, let hour = c.hour, let minute = c.minute {
            let days = daysFromCivil(c.year, month, day)
            let total = days * 1440 + hour * 60 + minute - offset
            let (utcDays, minuteOfDay) = (floorDiv(total, 1440), total - floorDiv(total, 1440) * 1440)
            let (y, m, d) = civilFromDays(utcDays)
            utc = iso(y, m, d, (minuteOfDay / 60, minuteOfDay % 60), c.second, c.fraction, zulu: true)
        }
        return ObservationTime(original: original, local: local, zone: c.zoneText, utc: utc)
    }

    /// `yyyy[-mm[-dd]][Thh:mm[:ss[.fraction]]][Z]`, every part already range-checked (two digits).
    ///
    /// Written into one string's storage: this runs once or twice per GPX point, and joining
    /// two-digit pieces with `+` cost more than the parsing. A year outside 0…9999 (a UTC
    /// instant moved past either end) takes the pieces' path, which prints it as it always did.
    private static func iso(_ year: Int, _ month: Int?, _ day: Int?, _ clock: (hour: Int, minute: Int)?, _ second: Int?,
                            _ fraction: String, zulu: Bool) -> String {
        guard (0...9999).contains(year) else {
            var text = four(year) + (month.map { "-" + two($0) } ?? "") + (day.map { "-" + two($0) } ?? "")
            if let clock {
                text += "T" + two(clock.hour) + ":" + two(clock.minute) + (second.map { ":" + two($0) } ?? "")
                if !fraction.isEmpty { text += "." + fraction }
            }
            return zulu ? text + "Z" : text
        }
        return String(unsafeUninitializedCapacity: 21 + fraction.utf8.count) { buffer in
            var count = 0
            func put(_ byte: UInt8) { buffer[count] = byte; count += 1 }
            func two(_ n: Int) { put(UInt8(48 + n / 10)); put(UInt8(48 + n % 10)) }
            two(year / 100)
            two(year % 100)
            if let month { put(UInt8(ascii: "-")); two(month) }
            if let day { put(UInt8(ascii: "-")); two(day) }
            if let clock {
                put(UInt8(ascii: "T")); two(clock.hour); put(UInt8(ascii: ":")); two(clock.minute)
                if let second { put(UInt8(ascii: ":")); two(second) }
                if !fraction.isEmpty {
                    put(UInt8(ascii: "."))
                    for byte in fraction.utf8 { put(byte) }
                }
            }
            if zulu { put(UInt8(ascii: "Z")) }
            return count
        }
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
    private static func four(_ n: Int) -> String { n >= 1000 ? String(n) : String(repeating: "0", count: 4 - String(n).count) + String(n) }
    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm): no Foundation calendar involved.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A date or time that does not parse: the text as found, and why.
private func timeError(_ text: String, _ reason: String = "expected an ISO 8601 date/time, MM-DD-YYYY, or hh:mm [AM|PM]") -> LocatedError {
    LocatedError(.invalidValue, file: "", found: text, message: reason)
}

/// A tiny cursor over the UTF-8 bytes of a date or time.
struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0
    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }
    var peek: Character? { atEnd ? nil : Character(Unicode.Scalar(bytes[index])) }
    var rest: String { String(decoding: bytes[index...], as: UTF8.self) }
    mutating func advance() { index += 1 }

    mutating func take(_ c: Unicode.Scalar) -> Bool {
        guard !atEnd, c.isASCII, bytes[index] == UInt8(c.value) else { return false }
        index += 1
        return true
    }

    /// Exactly `width` ASCII digits.
    mutating func number(_ width: Int, _ original: String) throws(LocatedError) -> Int {
        guard index + width <= bytes.count else { throw timeError(original) }
        var value = 0
        for d in bytes[index..<index + width] {
            guard d >= 48, d <= 57 else { throw timeError(original) }
            value = value * 10 + Int(d - 48)
        }
        index += width
        return value
    }

    mutating func digits() -> String {
        let start = index
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
