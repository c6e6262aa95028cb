import FieldGuideBytes
import FieldGuideCSV
import Foundation

/// The columns of `observations.csv`, one row per observation, in input order.
///
/// ```swift
/// var writer = CSVWriter()
/// writer.write(ObservationCSV.header)
/// ObservationCSV.write(observation, to: &writer)
/// ```
public enum ObservationCSV {
    public static let header = [
        "file", "line", "format", "record", "kind", "subject", "scientific_name", "family",
        "time_utc", "time_local", "time_zone", "latitude", "longitude", "elevation_m",
        "place", "place_id", "region", "checklist_id", "count", "non_species", "rating", "keywords",
        "registration", "icao_type", "manufacturer", "model", "title", "notes", "audio_file",
        "resolution", "resolution_reason", "resolved_id", "resolved_name", "candidates",
        "icao_type_name", "icao_description", "wake_class", "registration_status",
    ]

    /// Writes `o` as one row (the columns of `header`), field by field: no array of 38
    /// strings a row, and the numbers and coordinates go in as digits, not as `String`s.
    ///
    /// Why: `ingest-exports` writes a row for every point of a GPX track (882,217 in a 100 MB
    /// file); making the row as `[String]` first was a quarter of the stage's instructions
    /// (callgrind, SHA-256 aside).
    public static func write(_ o: Observation, to w: inout CSVWriter) {
        w.writeField(o.file); w.writeField(o.line)
        w.writeField(o.format.rawValue); w.writeField(o.record.rawValue); w.writeField(o.kind.rawValue)
        w.writeField(o.subject); w.writeField(o.scientificName); w.writeField(o.family)
        if let time = o.time {
            w.writeField(time.utc); w.writeField(time.local); w.writeField(time.zone)
        } else {
            w.writeEmptyFields(3)
        }
        if let position = o.position {
            writeDegrees(position.latitude, to: &w); writeDegrees(position.longitude, to: &w)
        } else {
            w.writeEmptyFields(2)
        }
        w.writeField(o.elevation.map { String($0) })
        w.writeField(o.place); w.writeField(o.placeID); w.writeField(o.region); w.writeField(o.checklistID)
        w.writeField(o.count?.description); w.writeField(o.nonSpecies?.rawValue)
        if let rating = o.rating { w.writeField(rating) } else { w.writeEmptyFields(1) }
        if o.keywords.isEmpty { w.writeEmptyFields(1) } else { w.writeField(o.keywords.joined(separator: "; ")) }
        w.writeField(o.registration); w.writeField(o.icaoType); w.writeField(o.manufacturer); w.writeField(o.model)
        w.writeField(o.title); w.writeField(o.notes); w.writeField(o.audioFile)
        if let r = o.resolution {
            w.writeField(r.status.rawValue); w.writeField(r.reason); w.writeField(r.id); w.writeField(r.name)
            w.writeField(r.candidates.joined(separator: "; "))
            w.writeField(r.icaoType?.name); w.writeField(r.icaoType?.description); w.writeField(r.icaoType?.wakeClass)
            w.writeField(r.registrationStatus?.rawValue)
        } else {
            w.writeEmptyFields(9)
        }
        w.endRecord()
    }

    /// The most bytes `degrees(_:into:)` writes for a coordinate: a sign, three digits, a
    /// point and seven (a value past ±180 has more integer digits: the buffer has room).
    static let maxDegreesBytes = 12

    /// Writes `value` as the next field of `w`, in decimal degrees with at most 7 fractional
    /// digits (about 1 cm), no trailing zeros, no negative zero.
    static func writeDegrees(_ value: Double, to w: inout CSVWriter) {
        withUnsafeTemporaryAllocation(byteCount: maxDegreesBytes + DecimalText.maxDigits, alignment: 1) { out in
            w.writeField(UnsafeRawBufferPointer(rebasing: out[0..<degrees(value, into: out)]))
        }
    }

    /// Writes `writeDegrees`' text for `value` at the start of `out`; returns how many bytes.
    /// Integer arithmetic, not `String(format:)`: this runs for every observation.
    static func degrees(_ value: Double, into out: UnsafeMutableRawBufferPointer) -> Int {
        let scaled = Int64((abs(value) * 10_000_000).rounded(.toNearestOrEven))
        if scaled == 0 { out[0] = UInt8(ascii: "0"); return 1 }
        var at = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); at = 1 }
        at += DecimalText.write(UInt64(scaled / 10_000_000), into: out, at: at)
        var fraction = scaled % 10_000_000
        var digits = 7
        while digits > 0 && fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        guard digits > 0 else { return at }
        out[at] = UInt8(ascii: ".")
        return at + 1 + DecimalText.write(UInt64(fraction), into: out, at: at + 1, minimumDigits: digits)
    }
}
