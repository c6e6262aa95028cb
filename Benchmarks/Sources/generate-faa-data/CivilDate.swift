/// Proleptic Gregorian dates as day numbers, so that every generated date is a real one.
///
/// Day 0 is 1970-01-01; the conversions are Howard Hinnant's `days_from_civil` and
/// `civil_from_days`.
enum CivilDate {
    /// The day number of `year`-`month`-`day`.
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of day number `n`.
    static func date(_ n: Int) -> (year: Int, month: Int, day: Int) {
        let z = n + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYYMMDD` of day number `n`, as an integer (`20230426`).
    static func yyyymmdd(_ n: Int) -> Int {
        let d = date(n)
        return d.year * 10_000 + d.month * 100 + d.day
    }

    /// The last day of `month` in `year`.
    static func endOfMonth(_ year: Int, _ month: Int) -> Int {
        month == 12 ? day(year + 1, 1, 1) - 1 : day(year, month + 1, 1) - 1
    }
}
