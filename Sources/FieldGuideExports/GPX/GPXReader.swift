import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideXML

/// Reads GPX 1.0 and 1.1: every waypoint (`wpt`) and track point (`trkpt`) becomes an `other`
/// observation with its position, elevation, time, name and description.
///
/// A track point without a name takes its track's name as subject. Route points (`rtept`, a
/// plan, not a place visited) are counted as skipped. Only direct children of a point are
/// read, so extension elements (`gpxx:…`, `groundspeak:name`) never shadow `name` or `time`.
/// Memory stays flat: one point is held at a time.
///
/// ```swift
/// let summary = try ExportFileReader.read(path: "trip.gpx", sink: RecordSink { print($0.subject, $0.position!) })
/// ```
public enum GPXReader {
    struct Point {
        var record: RecordKind
        var line: Int
        var depth: Int
        var latitude: String?
        var longitude: String?
        var ele: String?, time: String?, name: String?, desc: String?

        /// Whether a child element of a point is one of the fields read (`ele`, `time`, `name`, `desc`).
        static func isField(_ element: String) -> Bool {
            element == "ele" || element == "time" || element == "name" || element == "desc"
        }

        /// Sets field `element` (one `isField` accepts): a switch, not a dictionary, as this runs per point.
        mutating func set(_ element: String, _ text: String) {
            switch element {
            case "ele": ele = text
            case "time": time = text
            case "name": name = text
            default: desc = text
            }
        }
    }

    static func read(_ xml: inout XMLCursor, root: [XMLAttribute], file: String, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        var summary = ExportFileSummary(format: .gpx)
        var point: Point?
        var field: (name: String, text: String)?
        var trackName: String?
        var trackDepth: Int?
        var trackNameOpen = false
        while let event = try xml.next() {
            switch event {
            case let .start(name, attributes, line):
                if let p = point {
                    // Points do not nest: inside one, only its direct children count.
                    if xml.depth == p.depth + 1, Point.isField(name) { field = (name, "") }
                } else if name == "wpt" || name == "trkpt" {
                    point = Point(record: name == "wpt" ? .waypoint : .trackPoint, line: line, depth: xml.depth,
                                  latitude: attributes.first { $0.name == "lat" }?.value,
                                  longitude: attributes.first { $0.name == "lon" }?.value)
                } else if name == "rtept" {
                    summary.skipped["route points", default: 0] += 1
                } else if name == "trk" {
                    trackDepth = xml.depth
                    trackName = nil
                } else if name == "name", let t = trackDepth, xml.depth == t + 1 {
                    trackNameOpen = true
                    trackName = ""
                }
            case .text(let text):
                if field != nil { field!.text += text } else if trackNameOpen { trackName! += text }
            case .end(let name):
                if let f = field, name == f.name {
                    point?.set(f.name, f.text.trimmedASCII)
                    field = nil
                } else if let p = point, xml.depth == p.depth - 1 {
                    summary.records += 1
                    emit(p, trackName: trackName, file: file, sink: sink)
                    point = nil
                } else if trackNameOpen {
                    trackNameOpen = false
                    trackName = trackName?.trimmedASCII
                } else if let t = trackDepth, xml.depth == t - 1 {
                    trackDepth = nil
                    trackName = nil
                }
            }
        }
        return summary
    }

    static func emit(_ p: Point, trackName: String?, file: String, sink: RecordSink) {
        let name = p.name.flatMap { $0.isEmpty ? nil : $0 }
        let desc = p.desc.flatMap { $0.isEmpty ? nil : $0 }
        var observation = Observation(file: file, line: p.line, format: .gpx, record: p.record, kind: .other,
                                      subject: name ?? (p.record == .trackPoint ? trackName : desc) ?? "")
        observation.title = p.record == .trackPoint ? trackName : nil
        observation.notes = desc
        do throws(LocatedError) {
            guard let latitude = p.latitude, let longitude = p.longitude else {
                throw LocatedError.badValue(field: p.latitude == nil ? "lat" : "lon", value: "", reason: "a \(p.record.rawValue) needs both lat and lon attributes")
            }
            observation.position = try Coordinate.parse(latitude: latitude, longitude: longitude, latitudeField: "lat", longitudeField: "lon")
            if let ele = p.ele, !ele.isEmpty {
                guard let value = Double(ele), value.isFinite else { throw LocatedError.badValue(field: "ele", value: ele, reason: "expected metres as a decimal number") }
                observation.elevation = value
            }
            if let time = p.time, !time.isEmpty {
                do throws(LocatedError) { observation.time = try ObservationTime.iso8601(time) } catch { throw LocatedError.badValue(field: "time", value: time, reason: error.message) }
            }
        } catch {
            sink.reject(file: file, line: p.line, error)
            return
        }
        sink.observe(observation)
    }
}
