import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics

/// The aircraft identifier app's capture export CSV: one aircraft observation per row.
///
/// Header: `icao,manufacturer,model,registration,engine_type,num_engines,aircraft_type,
/// aircraft_classification,latitude,longitude,capture_date,capture_time,year,month,day,
/// near_airport`. The capture time has no zone (kept as local time); `near_airport` is the
/// place. The subject is the registration, else the ICAO type.
///
/// ```swift
/// // C172,Cessna,172S,N1196M,Piston,1,4,1,40.677468,-73.777617,2025-01-29,19:09:38,2025,1,29,KJFK
/// // → aircraft "N1196M", ICAO type C172, 2025-01-29T19:09:38 local, near KJFK
/// ```
public enum CaptureExport {
    static let required = ["icao", "registration", "latitude", "longitude", "capture_date", "capture_time"]
    /// Every column the reader reads: none may be named twice.
    static let columns = required + ["manufacturer", "model", "near_airport"]

    static func reader(_ columns: HeaderMap) -> (CSVRecord, String, RecordSink) -> Void {
        { record, file, sink in
            let registration = columns.value(record, "registration"), icao = columns.value(record, "icao")
            var observation = Observation(file: file, line: record.line, format: .capture, record: .aircraftCapture, kind: .aircraft,
                                          subject: registration.isEmpty ? icao : registration)
            observation.registration = nonEmpty(registration)
            observation.icaoType = nonEmpty(icao)
            observation.manufacturer = nonEmpty(columns.value(record, "manufacturer"))
            observation.model = nonEmpty(columns.value(record, "model"))
            observation.place = nonEmpty(columns.value(record, "near_airport"))
            do throws(LocatedError) {
                guard !observation.subject.isEmpty else { throw LocatedError.badValue(field: "registration", value: "", reason: "neither a registration nor an ICAO type") }
                try columns.place(&observation, record, date: "capture_date", time: "capture_time", latitude: "latitude", longitude: "longitude")
            } catch {
                sink.reject(file: file, line: record.line, error)
                return
            }
            sink.observe(observation)
        }
    }
}

extension CaptureExport {
    /// What the image recognizer wrote for one capture: the subject of a capture match.
    public struct Subject: Sendable, Hashable {
        public var line: Int
        public var icao: String
        public var manufacturer: String
        public var model: String
        public var registration: String
    }

    /// The captures a file holds, at most this many (a documented bound, checked as rows are read).
    public static let maximumSubjects = 1_000_000

    /// The ICAO type, manufacturer, model and registration of every capture in a capture export,
    /// one per data row (rows whose position or time would be rejected as observations
    /// included: matching needs only these fields). The header must name `icao`, `manufacturer`
    /// and `model`; another file is refused at line 1, naming what it found.
    ///
    /// ```swift
    /// let captures = try CaptureExport.subjects(path: "AirplaneID-TestData.csv")
    /// captures[0].icao    // "C172"
    /// ```
    public static func subjects(path: String, displayName: String? = nil) throws(LocatedError) -> [Subject] {
        let file = displayName ?? path
        let needed = ["icao", "manufacturer", "model"]
        var columns: HeaderMap?
        var subjects: [Subject] = []
        do {
            try CSVReader.read(fileAt: path, dialect: .rfc4180, displayName: file) { record in
                try HeaderMap.checkUTF8(record, file: file, names: columns?.names)
                guard let map = columns else {
                    let map = HeaderMap(record)
                    guard map.has(needed) else {
                        throw LocatedError(.unrecognized, file: file, line: record.line, column: 1,
                                           expected: "an aircraft capture header (\(needed.joined(separator: ", ")), …)",
                                           found: record.fields.prefix(6).joined(separator: ","), message: "not a capture export")
                    }
                    try map.refuseRepeated(needed + ["registration"], file: file, line: record.line)
                    columns = map
                    return
                }
                if record.count == 1, record[0].isEmpty { return }   // a blank line
                guard subjects.count < maximumSubjects else {
                    throw LocatedError(.tooLarge, file: file, line: record.line, message: "more than \(formatCount(maximumSubjects)) captures")
                }
                subjects.append(Subject(line: record.line, icao: map.value(record, "icao"), manufacturer: map.value(record, "manufacturer"),
                                        model: map.value(record, "model"), registration: map.value(record, "registration")))
            }
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(file, failed: error)
        }
        guard columns != nil else { throw LocatedError(.empty, file: file, line: 1, column: 1, message: "empty file: expected a CSV header") }
        return subjects
    }
}
