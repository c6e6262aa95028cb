import FieldGuideDiagnostics

/// The app records a property list export can hold, recognised by their keys.
///
/// Keys match ignoring case, `_`, `-` and spaces (`audioFileName` = `audio_file_name`). A
/// dictionary is, in this order:
///
/// | record | recognised by | read |
/// | --- | --- | --- |
/// | aircraft capture (`.aircraft`) | `registration` or `icaoType` (`icao`, `typeDesignator`) | `registration`, `icaoType`, `manufacturer`, `model`, `latitude`, `longitude`, `captureDate` (or `date`), `nearAirport`, `notes` |
/// | birdcall recording (`.bird`) | `species` with `audioFileName` (or `audioFile`) | `species`, `scientificName`, `title`, `notes`, `latitude`, `longitude`, `date`, `audioFileName` |
/// | nature-dex observation | `name` with `scientificName` or `family` | `name`, `scientificName`, `family`, `location`, `date`, `category`, `notes` |
/// | Day One journal entry (`.other`) | `Entry Text` | `Creation Date`, `Entry Text`, `Location` |
///
/// A dex observation is `.bird` when its `category` (or `class`) is `bird`, `birds` or `Aves`,
/// else `.other`. `location` is either text (a place name) or a dictionary with `latitude`,
/// `longitude` and optionally `name` (`placeName`, `Locality`). Dates are `<date>` values or
/// ISO 8601 strings; a date without a zone is kept as local time.
///
/// ```swift
/// let record: PropertyListValue = .dictionary([("registration", .string("N250JT")), ("icaoType", .string("C25A"))])
/// AppRecord.observation(record, file: "captures.plist", line: 4)   // .observation(kind: .aircraft, …)
/// ```
public enum AppRecord {
    public enum Outcome {
        case observation(Observation)
        case rejected(LocatedError)
        case notAnAppRecord
    }

    static let birdCategories: Set<String> = ["bird", "birds", "aves"]

    public static func observation(_ value: PropertyListValue, file: String, line: Int) -> Outcome {
        guard case .dictionary = value else { return .notAnAppRecord }
        let keys = FoldedKeys(value)
        let text = { (wanted: [String]) -> String? in
            keys.first(wanted)?.string.map { $0.trimmedASCII }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var observation: Observation
        var timeKeys = ["date"]
        if keys.first(["registration", "icaoType", "icao", "typeDesignator"]) != nil {
            let registration = text(["registration"]), type = text(["icaoType", "icao", "typeDesignator"])
            observation = Observation(file: file, line: line, format: .plist, record: .aircraftCapture, kind: .aircraft,
                                      subject: registration ?? type ?? "")
            observation.registration = registration
            observation.icaoType = type
            observation.manufacturer = text(["manufacturer"])
            observation.model = text(["model"])
            observation.place = text(["nearAirport", "airport"])
            observation.notes = text(["notes"])
            timeKeys = ["captureDate", "date", "timestamp"]
        } else if keys["species"] != nil, keys.first(["audioFileName", "audioFile"]) != nil {
            observation = Observation(file: file, line: line, format: .plist, record: .birdcallRecording, kind: .bird,
                                      subject: text(["species"]) ?? "")
            observation.scientificName = text(["scientificName"])
            observation.title = text(["title"])
            observation.notes = text(["notes"])
            observation.audioFile = text(["audioFileName", "audioFile"])
            timeKeys = ["date", "recordedAt", "recordingDate"]
        } else if keys["name"] != nil, keys.first(["scientificName", "family"]) != nil {
            let category = text(["category", "class"])?.lowercased()
            observation = Observation(file: file, line: line, format: .plist, record: .dexObservation,
                                      kind: category.map(birdCategories.contains) == true ? .bird : .other, subject: text(["name"]) ?? "")
            observation.scientificName = text(["scientificName"])
            observation.family = text(["family"])
            observation.notes = text(["notes"])
            timeKeys = ["date", "observedAt", "observationDate"]
        } else if let entry = text(["Entry Text"]) {
            observation = Observation(file: file, line: line, format: .plist, record: .journalEntry, kind: .other,
                                      subject: String(entry.split(whereSeparator: \.isNewline).first ?? "").prefix(80).description)
            observation.notes = entry
            timeKeys = ["Creation Date"]
        } else {
            return .notAnAppRecord
        }
        do throws(LocatedError) {
            guard !observation.subject.isEmpty else {
                throw LocatedError.badValue(field: observation.kind == .aircraft ? "registration" : "species", value: "", reason: "the record names no subject")
            }
            for key in timeKeys {
                guard let date = keys[key], let string = date.string else { continue }
                do throws(LocatedError) { observation.time = try ObservationTime.iso8601(string.trimmedASCII) } catch {
                    throw LocatedError.badValue(field: key, value: string, reason: error.message)
                }
                break
            }
            try locate(&observation, in: keys)
        } catch {
            return .rejected(error)
        }
        return .observation(observation)
    }

    /// `latitude`/`longitude` at the top, else inside a `location` dictionary; a `location` string is the place.
    static func locate(_ observation: inout Observation, in keys: FoldedKeys) throws(LocatedError) {
        var holder = keys
        if let location = keys.first(["location", "Location"]) {
            if case .dictionary = location { holder = FoldedKeys(location) } else if let place = location.string { observation.place = place }
        }
        if case .dictionary = holder.value, holder.first(["name", "placeName", "Locality", "Place Name"]) != nil, holder.value != keys.value {
            observation.place = holder.first(["name", "placeName", "Locality", "Place Name"])?.string
        }
        let latitude = holder.first(["latitude", "lat"]), longitude = holder.first(["longitude", "lon", "lng"])
        guard latitude != nil || longitude != nil else { return }
        guard let lat = latitude?.double ?? (latitude == nil ? nil : .nan) else {
            throw LocatedError.badValue(field: "latitude", value: "", reason: "longitude given without latitude")
        }
        guard let lon = longitude?.double ?? (longitude == nil ? nil : .nan) else {
            throw LocatedError.badValue(field: "longitude", value: "", reason: "latitude given without longitude")
        }
        guard lat.isFinite else { throw LocatedError.badValue(field: "latitude", value: latitude?.string ?? "", reason: "expected a number") }
        guard lon.isFinite else { throw LocatedError.badValue(field: "longitude", value: longitude?.string ?? "", reason: "expected a number") }
        do { observation.position = try Coordinate.validated(latitude: lat, longitude: lon, field: "latitude") } catch {
            let isLatitude = error.message.hasPrefix("latitude")
            throw LocatedError.badValue(field: isLatitude ? "latitude" : "longitude", value: isLatitude ? String(lat) : String(lon), reason: error.message)
        }
    }
}
