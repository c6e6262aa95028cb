import FieldGuideCSV
import FieldGuideCore

/// Normalizes DEREG and RESERVED records into the rows of `deregistered.csv` and
/// `reserved.csv` (`NormalizedFAAStatus`), with MASTER's rules: text trimmed, marks checked and
/// `N`-prefixed, `YYYYMMDD` dates checked, codes looked up (unknown kept with a warning),
/// ZIP+4 dashed, MODE-S-CODE (octal) checked against MODE S CODE HEX, Latin-1 read with a warning.
///
/// ```swift
/// switch FAAStatusNormalizer.deregistered(record, file: "DEREG.txt") {
/// case .kept(let row, let warnings): try out.write(row)
/// case .rejected(let issues): …
/// }
/// ```
package enum FAAStatusNormalizer {
    /// A DEREG record: the fields of `NormalizedFAAStatus.deregisteredHeader`.
    package static func deregistered(_ record: CSVRecord, file: String) -> FAANormalizer.Outcome<[String]> {
        FAANormalizer.read(record, file: file, columns: FAAStatusLayout.deregistered) { f in
            let mark = Self.mark(&f, 0)
            let status = f.code(3, FAACodeTables.status)
            let registrantType = f.code(19, FAACodeTables.registrantType)
            let region = f.code(13, FAACodeTables.region)
            let modeS = FAANormalizer.modeS(&f, octal: 18, hex: 37)
            let year = f.integer(11)
            let dates = [16, 17, 21, 22].map { f.date($0) }
            let otherNames = (30...34).map { f.text($0) }.filter { !$0.isEmpty }.joined(separator: "|")
            return [
                mark, f.text(1), f.text(2), status.raw, f.text(4), f.text(5), f.text(6), f.text(7), f.text(8),
                FAANormalizer.zip(f.text(9)), f.text(10), year.text, f.text(12), region.raw, f.text(14), f.text(15),
                dates[0].text, dates[1].text, modeS.map(Self.hex) ?? "", registrantType.raw, f.text(20),
                dates[2].text, dates[3].text, f.text(23), f.text(24), f.text(25), f.text(26), FAANormalizer.zip(f.text(27)),
                f.text(28), f.text(29), otherNames, f.text(35), f.text(36),
            ]
        }
    }

    /// A RESERVED record: the fields of `NormalizedFAAStatus.reservedHeader`.
    package static func reserved(_ record: CSVRecord, file: String) -> FAANormalizer.Outcome<[String]> {
        FAANormalizer.read(record, file: file, columns: FAAStatusLayout.reserved) { f in
            let mark = Self.mark(&f, 0)
            let type = f.code(8, FAACodeTables.reservationType)
            let dates = [7, 9, 11].map { f.date($0) }
            var change = f.text(10)
            if !change.isEmpty {
                if let problem = FAANormalizer.markProblem(change) {
                    f.warn(10, value: change, problem + "; kept as written")
                } else {
                    change = "N" + change
                }
            }
            return [
                mark, f.text(1), f.text(2), f.text(3), f.text(4), f.text(5), FAANormalizer.zip(f.text(6)),
                dates[0].text, type.raw, dates[1].text, change, dates[2].text,
            ]
        }
    }

    /// The N-number of field `i`, `N`-prefixed; a blank or malformed mark rejects the row.
    private static func mark(_ f: inout FieldReader, _ i: Int) -> String {
        let mark = f.required(i)
        if !mark.isEmpty, let problem = FAANormalizer.markProblem(mark) { f.reject(i, value: mark, problem) }
        return "N" + mark
    }

    /// A 24-bit address as six upper-case hex digits.
    static func hex(_ address: UInt32) -> String {
        let digits = String(address, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
