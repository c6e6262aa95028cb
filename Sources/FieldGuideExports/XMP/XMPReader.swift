import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// Turns an XMP sidecar into observations.
///
/// * Time: `exif:DateTimeOriginal`, else `xmp:CreateDate`, else `photoshop:DateCreated` (the
///   first that is not empty), with or without a zone.
/// * Position: `exif:GPSLatitude`/`GPSLongitude` as `DDD,MM.mmmmH`, `DDD,MM,SSH` or decimal
///   with `GPSLatitudeRef`/`GPSLongitudeRef`.
/// * Subjects: each `lr:hierarchicalSubject` keyword under `Birds`/`Bird`/`Aves` is a bird
///   observation of its leaf (`Birds|Herons|Grey Heron` → `Grey Heron`), each under
///   `Aircraft`/`Airplanes`/`Planes` an aircraft observation of its leaf (a registration or an
///   ICAO type designator); a sidecar with neither is one `other` observation of the photo,
///   its subject the title (`dc:title`), else the photo's file name.
/// * Every observation of the sidecar carries its keywords (`dc:subject`, then hierarchical
///   ones not already listed), rating (`xmp:Rating`), title and description.
///
/// ```swift
/// let summary = try ExportFileReader.read(path: "heron.jpg.xmp", sink: sink)  // format .xmp
/// ```
public enum XMPReader {
    static let birdRoots: Set<String> = ["birds", "bird", "aves"]
    static let aircraftRoots: Set<String> = ["aircraft", "airplanes", "aeroplanes", "planes"]

    static func read(_ xml: inout XMLCursor, rootLine: Int, file: String, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        let sidecar = try XMPSidecar.collect(&xml, rootLine: rootLine)
        var summary = ExportFileSummary(format: .xmp)
        summary.records = 1
        let observations: [Observation]
        do throws(LocatedError) { observations = try self.observations(sidecar, file: file, sink: sink) } catch {
            sink.reject(file: file, line: sidecar.line, error)
            return summary
        }
        observations.forEach(sink.observe)
        return summary
    }

    /// The observations a sidecar describes (throws when its time or position is unusable).
    public static func observations(_ sidecar: XMPSidecar, file: String, sink: RecordSink? = nil) throws(LocatedError) -> [Observation] {
        var base = Observation(file: file, line: sidecar.line, format: .xmp, record: .sidecar, kind: .other, subject: "")
        for key in ["exif:DateTimeOriginal", "xmp:CreateDate", "photoshop:DateCreated"] {
            guard let text = sidecar.value(key) else { continue }
            do throws(LocatedError) { base.time = try ObservationTime.iso8601(text) } catch {
                throw LocatedError.badValue(field: key, value: text, reason: error.message)
            }
            break
        }
        let latitude = sidecar.value("exif:GPSLatitude"), longitude = sidecar.value("exif:GPSLongitude")
        if latitude != nil || longitude != nil {
            guard let latitude else { throw LocatedError.badValue(field: "exif:GPSLatitude", value: "", reason: "longitude given without latitude") }
            guard let longitude else { throw LocatedError.badValue(field: "exif:GPSLongitude", value: "", reason: "latitude given without longitude") }
            let lat = try Coordinate.xmpDegrees(latitude, axis: .latitude, ref: sidecar.value("exif:GPSLatitudeRef"), field: "exif:GPSLatitude")
            let lon = try Coordinate.xmpDegrees(longitude, axis: .longitude, ref: sidecar.value("exif:GPSLongitudeRef"), field: "exif:GPSLongitude")
            base.position = Coordinate(latitude: lat, longitude: lon)
        }
        if let rating = sidecar.value("xmp:Rating") {
            if let value = Double(numeral: rating), value == value.rounded(), (-1...5).contains(value) {
                base.rating = Int(value)
            } else {
                sink?.warn(file: file, line: sidecar.line, LocatedError.badValue(field: "xmp:Rating", value: rating, reason: "expected a rating −1…5; left empty"))
            }
        }
        base.title = sidecar.value("dc:title") ?? sidecar.items("dc:title").first
        base.notes = sidecar.value("dc:description") ?? sidecar.items("dc:description").first
        let flat = sidecar.items("dc:subject") + (sidecar.value("dc:subject").map { [$0] } ?? [])
        let hierarchical = sidecar.lists["lr:hierarchicalSubject"] ?? []
        base.keywords = flat + hierarchical.map(\.text).filter { !flat.contains($0) }

        var result: [Observation] = []
        for keyword in hierarchical {
            let path = keyword.text.split(separator: "|").map { $0.trimmedASCII }.filter { !$0.isEmpty }
            guard path.count >= 2, let root = path.first?.lowercased(), let leaf = path.last else { continue }
            let kind: ObservationKind
            if birdRoots.contains(root) { kind = .bird } else if aircraftRoots.contains(root) { kind = .aircraft } else { continue }
            var observation = base
            observation.line = keyword.line
            observation.kind = kind
            observation.subject = leaf
            result.append(observation)
        }
        if result.isEmpty {
            var observation = base
            let photo = (file as NSString).lastPathComponent
            observation.subject = base.title ?? (photo.lowercased().hasSuffix(".xmp") ? String(photo.dropLast(4)) : photo)
            result.append(observation)
        }
        return result
    }
}
