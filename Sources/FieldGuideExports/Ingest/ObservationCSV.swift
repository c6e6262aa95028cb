import FieldGuideCSV
import Foundation

/// The columns of `observations.csv`, one row per observation, in input order.
///
/// ```swift
/// var writer = CSVWriter()
/// writer.write(ObservationCSV.header)
/// writer.write(ObservationCSV.row(observation))
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

    public static func row(_ o: Observation) -> [String] {
        let r = o.resolution
        return [
            o.file, String(o.line), o.format.rawValue, o.record.rawValue, o.kind.rawValue, o.subject, o.scientificName ?? "", o.family ?? "",
            o.time?.utc ?? "", o.time?.local ?? "", o.time?.zone ?? "",
            o.position.map { degrees($0.latitude) } ?? "", o.position.map { degrees($0.longitude) } ?? "", o.elevation.map { String($0) } ?? "",
            o.place ?? "", o.placeID ?? "", o.region ?? "", o.checklistID ?? "", o.count?.description ?? "", o.nonSpecies?.rawValue ?? "",
            o.rating.map(String.init) ?? "", o.keywords.joined(separator: "; "),
            o.registration ?? "", o.icaoType ?? "", o.manufacturer ?? "", o.model ?? "", o.title ?? "", o.notes ?? "", o.audioFile ?? "",
            r?.status.rawValue ?? "", r?.reason ?? "", r?.id ?? "", r?.name ?? "", r?.candidates.joined(separator: "; ") ?? "",
            r?.icaoType?.name ?? "", r?.icaoType?.description ?? "", r?.icaoType?.wakeClass ?? "",
            r?.registrationStatus?.rawValue ?? "",
        ]
    }

    /// Decimal degrees with at most 7 fractional digits (about 1 cm), no trailing zeros.
    /// Integer arithmetic, not `String(format:)`: this runs for every observation.
    static func degrees(_ value: Double) -> String {
        let scaled = Int64((abs(value) * 10_000_000).rounded(.toNearestOrEven))
        if scaled == 0 { return "0" }
        var fraction = scaled % 10_000_000
        var digits = 7
        while digits > 0 && fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        var text = value < 0 ? "-" : ""
        text += String(scaled / 10_000_000)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }
}
