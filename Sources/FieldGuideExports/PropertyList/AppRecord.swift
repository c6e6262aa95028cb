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

    /// The keys each record reads, folded once (`FoldedKeys.Key`), in the order they are tried.
    private enum Keys {
        static let aircraft: [FoldedKeys.Key] = ["registration", "icaoType", "icao", "typeDesignator"]
        static let registration: [FoldedKeys.Key] = ["registration"]
        static let icaoType: [FoldedKeys.Key] = ["icaoType", "icao", "typeDesignator"]
        static let manufacturer: [FoldedKeys.Key] = ["manufacturer"]
        static let model: [FoldedKeys.Key] = ["model"]
        static let airport: [FoldedKeys.Key] = ["nearAirport", "airport"]
        static let notes: [FoldedKeys.Key] = ["notes"]
        static let aircraftTimes: [FoldedKeys.Key] = ["captureDate", "date", "timestamp"]
        static let species: [FoldedKeys.Key] = ["species"]
        static let audioFile: [FoldedKeys.Key] = ["audioFileName", "audioFile"]
        static let scientificName: [FoldedKeys.Key] = ["scientificName"]
        static let title: [FoldedKeys.Key] = ["title"]
        static let recordingTimes: [FoldedKeys.Key] = ["date", "recordedAt", "recordingDate"]
        static let dexTaxon: [FoldedKeys.Key] = ["scientificName", "family"]
        static let category: [FoldedKeys.Key] = ["category", "class"]
        static let name: [FoldedKeys.Key] = ["name"]
        static let family: [FoldedKeys.Key] = ["family"]
        static let dexTimes: [FoldedKeys.Key] = ["date", "observedAt", "observationDate"]
        static let entryText: [FoldedKeys.Key] = ["Entry Text"]
        static let journalTimes: [FoldedKeys.Key] = ["Creation Date"]
        static let date: [FoldedKeys.Key] = ["date"]
        static let location: [FoldedKeys.Key] = ["location", "Location"]
        static let placeName: [FoldedKeys.Key] = ["name", "placeName", "Locality", "Place Name"]
        static let latitude: [FoldedKeys.Key] = ["latitude", "lat"]
        static let longitude: [FoldedKeys.Key] = ["longitude", "lon", "lng"]
    }

    static let birdCategories: Set<String> = ["bird", "birds", "aves"]

    public static func observation(_ value: PropertyListValue, file: String, line: Int) -> Outcome {
        var cache = FoldedKeys.Cache()
        return observation(value, file: file, line: line, keys: &cache)
    }

    /// The same, its keys folded through `cache` (kept across the records of one file).
    static func observation(_ value: PropertyListValue, file: String, line: Int, keys cache: inout FoldedKeys.Cache) -> Outcome {
        var outcome = Outcome.notAnAppRecord
        _ = observation(value, file: file, line: line, keys: &cache, observe: { outcome = .observation($0) }, reject: { outcome = .rejected($0) })
        return outcome
    }

    /// The same outcome handed to `observe` or `reject` (false: not an app record), for a file's
    /// records: an `Outcome` made and taken apart per record copied the observation, a score of
    /// strings, and destroyed the enumeration through generic code (4% of reading a property list).
    static func observation(_ value: PropertyListValue, file: String, line: Int, keys cache: inout FoldedKeys.Cache,
                            observe: (Observation) -> Void, reject: (LocatedError) -> Void) -> Bool {
        guard case .dictionary = value else { return false }
        let keys = FoldedKeys(value, cache: &cache)
        let text = { (wanted: [FoldedKeys.Key]) -> String? in
            keys.first(wanted)?.string.map { $0.trimmedASCII }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var observation: Observation
        var timeKeys = Keys.date
        if keys.first(Keys.aircraft) != nil {
            let registration = text(Keys.registration), type = text(Keys.icaoType)
            observation = Observation(file: file, line: line, format: .plist, record: .aircraftCapture, kind: .aircraft,
                                      subject: registration ?? type ?? "")
            observation.registration = registration
            observation.icaoType = type
            observation.manufacturer = text(Keys.manufacturer)
            observation.model = text(Keys.model)
            observation.place = text(Keys.airport)
            observation.notes = text(Keys.notes)
            timeKeys = Keys.aircraftTimes
        } else if keys.first(Keys.species) != nil, keys.first(Keys.audioFile) != nil {
            observation = Observation(file: file, line: line, format: .plist, record: .birdcallRecording, kind: .bird,
                                      subject: text(Keys.species) ?? "")
            observation.scientificName = text(Keys.scientificName)
            observation.title = text(Keys.title)
            observation.notes = text(Keys.notes)
            observation.audioFile = text(Keys.audioFile)
            timeKeys = Keys.recordingTimes
        } else if keys.first(Keys.name) != nil, keys.first(Keys.dexTaxon) != nil {
            let category = text(Keys.category)?.lowercased()
            observation = Observation(file: file, line: line, format: .plist, record: .dexObservation,
                                      kind: category.map(birdCategories.contains) == true ? .bird : .other, subject: text(Keys.name) ?? "")
            observation.scientificName = text(Keys.scientificName)
            observation.family = text(Keys.family)
            observation.notes = text(Keys.notes)
            timeKeys = Keys.dexTimes
        } else if let entry = text(Keys.entryText) {
            observation = Observation(file: file, line: line, format: .plist, record: .journalEntry, kind: .other,
                                      subject: String(entry.split(whereSeparator: \.isNewline).first ?? "").prefix(80).description)
            observation.notes = entry
            timeKeys = Keys.journalTimes
        } else {
            return false
        }
        do throws(LocatedError) {
            guard !observation.subject.isEmpty else {
                throw LocatedError.badValue(field: observation.kind == .aircraft ? "registration" : "species", value: "", reason: "the record names no subject")
            }
            for key in timeKeys {
                guard let date = keys[key], let string = date.string else { continue }
                do throws(LocatedError) { observation.time = try ObservationTime.iso8601(string.trimmedASCII) } catch {
                    throw LocatedError.badValue(field: key.text, value: string, reason: error.message)
                }
                break
            }
            try locate(&observation, in: keys)
        } catch {
            reject(error)
            return true
        }
        observe(observation)
        return true
    }

    /// `latitude`/`longitude` at the top, else inside a `location` dictionary; a `location` string is the place.
    static func locate(_ observation: inout Observation, in keys: FoldedKeys) throws(LocatedError) {
        var holder = keys
        if let location = keys.first(Keys.location) {
            if case .dictionary = location { holder = FoldedKeys(location) } else if let place = location.string { observation.place = place }
        }
        if case .dictionary = holder.value, holder.first(Keys.placeName) != nil, holder.value != keys.value {
            observation.place = holder.first(Keys.placeName)?.string
        }
        let latitude = holder.first(Keys.latitude), longitude = holder.first(Keys.longitude)
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
