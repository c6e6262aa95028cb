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
