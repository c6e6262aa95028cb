import Foundation

/// UTC timestamps in the two forms the pipeline writes, made and read by arithmetic.
///
/// Why not `ISO8601DateFormatter` or `DateFormatter`: on Linux the first one a process makes
/// loads ICU's calendar, time-zone and number-format data, about 7 ms. An unchanged nightly
/// rerun made three of them (the run id, the summary's start, the sources' freshness) in a run
/// that otherwise takes a few tens of milliseconds. The forms here are fixed (UTC, whole
/// seconds, the proleptic Gregorian calendar), so the civil date is a few divisions away
/// (Howard Hinnant's `civil_from_days` and `days_from_civil`). `UTCTimestampTests` holds
/// them to Foundation's formatters.
///
/// ```swift
/// UTCTimestamp.iso8601(secondsSince1970: 1_795_144_500)   // "2026-11-20T03:15:00Z"
/// UTCTimestamp.compact(secondsSince1970: 1_795_144_500)   // "20261120T031500Z"
/// UTCTimestamp.secondsSince1970("2026-11-20T03:15:00Z")   // 1_795_144_500
/// ```
public enum UTCTimestamp {
    /// `date` as `yyyy-MM-ddTHH:mm:ssZ` (what `ISO8601DateFormatter` writes in UTC), the
    /// seconds rounded down.
    public static func iso8601(_ date: Date) -> String {
        iso8601(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// `seconds` after 1970-01-01T00:00:00Z as `yyyy-MM-ddTHH:mm:ssZ`.
    public static func iso8601(secondsSince1970 seconds: Int64) -> String {
        let t = Fields(seconds)
        return digits(t.year, 4) + "-" + digits(t.month, 2) + "-" + digits(t.day, 2) + "T"
            + digits(t.hour, 2) + ":" + digits(t.minute, 2) + ":" + digits(t.second, 2) + "Z"
    }

    /// `date` as `yyyyMMddTHHmmssZ` (a run's id).
    public static func compact(_ date: Date) -> String {
        compact(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// `seconds` after 1970-01-01T00:00:00Z as `yyyyMMddTHHmmssZ`.
    public static func compact(secondsSince1970 seconds: Int64) -> String {
        let t = Fields(seconds)
        return digits(t.year, 4) + digits(t.month, 2) + digits(t.day, 2) + "T"
            + digits(t.hour, 2) + digits(t.minute, 2) + digits(t.second, 2) + "Z"
    }

    /// The instant an internet date-time names (`2026-11-20T03:15:00Z`, or with an offset,
    /// `2026-11-20T04:15:00+01:00`), as seconds since 1970; nil for any other text, a month
    /// or day that does not exist, or an hour past 23.
    public static func secondsSince1970(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count == 20 || b.count == 25, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74,
              b[13] == 0x3A, b[16] == 0x3A,
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var offset: Int64 = 0
        if b.count == 25 {
            guard b[19] == 0x2B || b[19] == 0x2D, b[22] == 0x3A, let h = number(b, 20, 2), let m = number(b, 23, 2),
                  h < 24, m < 60 else { return nil }
            offset = (b[19] == 0x2D ? -1 : 1) * (h * 3600 + m * 60)
        } else {
            guard b[19] == 0x5A || b[19] == 0x7A else { return nil }
        }
        return days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    /// The instant an internet date-time names (`secondsSince1970(_:)`), as a `Date`.
    public static func date(_ text: String) -> Date? {
        secondsSince1970(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// A time's civil fields in UTC.
    private struct Fields {
        var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64

        init(_ seconds: Int64) {
            let (days, rest) = floorDivision(seconds, 86_400)
            (hour, minute, second) = (rest / 3600, rest / 60 % 60, rest % 60)
            // civil_from_days: eras of 400 years (146,097 days), years starting on March 1.
            let z = days + 719_468
            let era = floorDivision(z, 146_097).quotient
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let shiftedMonth = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
            month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        }
    }

    /// days_from_civil: days from 1970-01-01 to a proleptic Gregorian date.
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// `value` with at least `width` digits (zeros in front; a minus sign before them).
    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value.magnitude)
        let padded = text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        return value < 0 ? "-" + padded : padded
    }

    /// The decimal number in `count` ASCII digits at `start`, nil when one is not a digit.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for byte in bytes[start..<start + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }
}
