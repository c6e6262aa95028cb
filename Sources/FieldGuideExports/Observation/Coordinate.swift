import Foundation
import FieldGuideDiagnostics

/// A validated WGS 84 position in decimal degrees.
///
/// ```swift
/// let p = try Coordinate.validated(latitude: 52.52, longitude: 13.37, field: "lat/lon")
/// try Coordinate.xmpDegrees("87,21.291962N", axis: .latitude)      // 87.354866…
/// ```
public struct Coordinate: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double

    public enum Axis: Sendable { case latitude, longitude }

    /// A coordinate after range checks: latitude −90…90, longitude −180…180, both finite.
    public static func validated(latitude: Double, longitude: Double, field: String) throws(LocatedError) -> Coordinate {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw LocatedError.badValue(field: field, value: String(latitude), reason: "latitude out of range −90…90")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw LocatedError.badValue(field: field, value: String(longitude), reason: "longitude out of range −180…180")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Both texts as decimal degrees (either both present or both empty: nil).
    public static func parse(latitude: String, longitude: String, latitudeField: String, longitudeField: String) throws(LocatedError) -> Coordinate? {
        let lat = latitude.trimmedASCII, lon = longitude.trimmedASCII
        if lat.isEmpty && lon.isEmpty { return nil }
        guard !lat.isEmpty else { throw LocatedError.badValue(field: latitudeField, value: "", reason: "longitude given without latitude") }
        guard !lon.isEmpty else { throw LocatedError.badValue(field: longitudeField, value: "", reason: "latitude given without longitude") }
        guard let la = Double(numeral: lat) else { throw LocatedError.badValue(field: latitudeField, value: latitude, reason: "expected decimal degrees") }
        guard let lo = Double(numeral: lon) else { throw LocatedError.badValue(field: longitudeField, value: longitude, reason: "expected decimal degrees") }
        do { return try validated(latitude: la, longitude: lo, field: latitudeField) } catch {
            throw LocatedError.badValue(field: error.message.hasPrefix("latitude") ? latitudeField : longitudeField,
                                        value: error.message.hasPrefix("latitude") ? latitude : longitude, reason: error.message)
        }
    }

    /// What `parse` gives for the UTF-8 bytes of two values already trimmed, when both are plain
    /// decimals (`Double(decimal:)`'s short path) in range; nil for anything else, which the
    /// caller then reads through `parse` itself (its errors name the values as written). Exists
    /// for speed: a GPX file has a position per point, and making, trimming and reading two
    /// strings cost more than the rest of the point.
    static func short(latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>) -> Coordinate? {
        guard let lat = Double.shortDecimal(latitude), let lon = Double.shortDecimal(longitude),
              (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// An XMP GPS value: `DDD,MM.mmmmH`, `DDD,MM,SSH` (EXIF/XMP spec), or decimal degrees
    /// with an optional hemisphere letter; `ref` (`N`/`S`/`E`/`W`, from `GPSLatitudeRef`)
    /// applies when the value has no letter.
    public static func xmpDegrees(_ text: String, axis: Axis, ref: String? = nil, field: String) throws(LocatedError) -> Double {
        var body = text.trimmedASCII
        var hemisphere: Character?
        if let last = body.last, "NSEWnsew".contains(last) {
            hemisphere = Character(last.uppercased())
            body.removeLast()
        } else if let ref = ref?.trimmedASCII.uppercased(), let letter = ref.first, ref.count == 1 {
            hemisphere = letter
        }
        let allowed: Set<Character> = axis == .latitude ? ["N", "S"] : ["E", "W"]
        if let hemisphere, !allowed.contains(hemisphere) {
            throw LocatedError.badValue(field: field, value: text, reason: "hemisphere \(hemisphere) does not fit a \(axis == .latitude ? "latitude" : "longitude")")
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false).map { Double(numeral: $0.trimmedASCII) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else {
            throw LocatedError.badValue(field: field, value: text, reason: "expected DDD,MM.mmmmH, DDD,MM,SSH or decimal degrees")
        }
        let numbers = parts.map { $0! }
        if numbers.count > 1 {
            guard numbers[0] >= 0, numbers[0] == numbers[0].rounded(), (0..<60).contains(numbers[1]),
                  numbers.count < 3 || (0..<60).contains(numbers[2]) else {
                throw LocatedError.badValue(field: field, value: text, reason: "degrees, minutes or seconds out of range")
            }
        }
        var degrees = numbers[0] + (numbers.count > 1 ? numbers[1] / 60 : 0) + (numbers.count > 2 ? numbers[2] / 3600 : 0)
        if hemisphere == "S" || hemisphere == "W" { degrees = -degrees }
        let limit: Double = axis == .latitude ? 90 : 180
        guard degrees.isFinite, abs(degrees) <= limit else {
            throw LocatedError.badValue(field: field, value: text, reason: "\(axis == .latitude ? "latitude" : "longitude") out of range −\(Int(limit))…\(Int(limit))")
        }
        return degrees
    }
}

extension LocatedError {
    /// One field of a record refused: which field, what it held, and why. The reader checks
    /// values before it knows where they sit; `RecordSink` files them at their record.
    ///
    /// ```swift
    /// LocatedError.badValue(field: "lat", value: "91", reason: "latitude out of range −90…90")
    /// // lat: latitude out of range −90…90 (found 91)
    /// ```
    static func badValue(field: String, value: String, reason: String) -> LocatedError {
        LocatedError(.invalidValue, file: "", field: field, found: value, message: reason)
    }
}
