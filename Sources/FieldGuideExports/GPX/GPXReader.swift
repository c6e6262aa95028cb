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
        var ele: String?, time: String?, name: String?, desc: String?
        /// `ele` read as a plain decimal straight from its bytes (then `ele` is nil): what
        /// `Double(decimal:)` gives it, without a string made per point.
        var elevation: Double?

        /// Starts a new point in place (no `Point?` made and dropped per point: an optional
        /// point's destruction went through the runtime's generic code, its four strings too).
        mutating func start(_ record: RecordKind, line: Int, depth: Int) {
            (self.record, self.line, self.depth) = (record, line, depth)
            (ele, time, name, desc, elevation) = (nil, nil, nil, nil, nil)
        }

        /// Sets `field` to `text`: a switch, not a dictionary, as this runs per point.
        mutating func set(_ field: Field, _ text: String) {
            switch field {
            case .ele: ele = text
            case .time: time = text
            case .name: name = text
            case .desc: desc = text
            }
        }
    }

    /// The child elements of a point that are read.
    enum Field { case ele, time, name, desc }

    /// The `lat` and `lon` attributes of the point being read, as the bytes written: kept between
    /// points (no allocation per point) and made into strings only when a value is refused.
    struct Position {
        var latitude = TextBytes(), longitude = TextBytes()
        var hasLatitude = false, hasLongitude = false

        /// Reads the attributes of the point's start tag, in one pass over them.
        mutating func read(_ reader: XMLStreamReader, _ names: Names) {
            (hasLatitude, hasLongitude) = (false, false)
            reader.forEachAttribute { name, value in
                if name == names.lat, !hasLatitude {
                    latitude.reset()
                    latitude.append(value)
                    hasLatitude = true
                } else if name == names.lon, !hasLongitude {
                    longitude.reset()
                    longitude.append(value)
                    hasLongitude = true
                }
            }
        }

        /// The position, as `Coordinate.parse` reads the two values as strings.
        func coordinate(_ record: RecordKind) throws(LocatedError) -> Coordinate? {
            guard hasLatitude, hasLongitude else {
                throw LocatedError.badValue(field: hasLatitude ? "lon" : "lat", value: "", reason: "a \(record.rawValue) needs both lat and lon attributes")
            }
            if let position = latitude.withTrimmed({ lat in longitude.withTrimmed { lon in Coordinate.short(latitude: lat, longitude: lon) } }) {
                return position
            }
            return try Coordinate.parse(latitude: latitude.string, longitude: longitude.string, latitudeField: "lat", longitudeField: "lon")
        }
    }

    /// The element and attribute names the reader looks for, in the reader's dictionary: each
    /// element's name is compared as an address, never made into a `String`.
    struct Names {
        let wpt, trkpt, rtept, trk, name, ele, time, desc, lat, lon: XMLName

        init(_ reader: XMLStreamReader) {
            (wpt, trkpt, rtept, trk) = (reader.intern("wpt"), reader.intern("trkpt"), reader.intern("rtept"), reader.intern("trk"))
            (name, ele, time, desc) = (reader.intern("name"), reader.intern("ele"), reader.intern("time"), reader.intern("desc"))
            (lat, lon) = (reader.intern("lat"), reader.intern("lon"))
        }

        func field(_ element: XMLName) -> Field? {
            switch element {
            case ele: .ele
            case time: .time
            case name: .name
            case desc: .desc
            default: nil
            }
        }
    }

    static func read(_ xml: inout XMLCursor, root: [XMLAttribute], file: String, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        var summary = ExportFileSummary(format: .gpx)
        let names = Names(xml.reader)
        // The point being read, reused from one to the next (`start`), and its depth while one is open.
        var point = Point(record: .waypoint, line: 0, depth: 0)
        var pointDepth: Int?
        var position = Position()
        var field: (field: Field, name: XMLName)?
        var text = TextBytes()
        var trackName: String?
        var trackDepth: Int?
        var trackNameOpen = false
        while let node = try xml.read() {
            switch node {
            case .start:
                let name = xml.reader.name
                if let depth = pointDepth {
                    // Points do not nest: inside one, only its direct children count.
                    if xml.depth == depth + 1, let f = names.field(name) {
                        field = (f, name)
                        text.reset()
                    }
                } else if name == names.wpt || name == names.trkpt {
                    point.start(name == names.wpt ? .waypoint : .trackPoint, line: xml.reader.line, depth: xml.depth)
                    pointDepth = xml.depth
                    position.read(xml.reader, names)
                } else if name == names.rtept {
                    summary.skipped[ExportFileSummary.routePoints, default: 0] += 1
                } else if name == names.trk {
                    trackDepth = xml.depth
                    trackName = nil
                } else if name == names.name, let t = trackDepth, xml.depth == t + 1 {
                    trackNameOpen = true
                    trackName = ""
                }
            case .text:
                // A track's name is rare: gathered as a `String`, as a point inside it would see it.
                if field != nil { text.append(xml.reader.text) } else if trackNameOpen { trackName! += xml.reader.textString }
            case .end:
                if let f = field, xml.reader.name == f.name {
                    if f.field == .ele, let value = text.withTrimmed(Double.shortDecimal) {
                        (point.elevation, point.ele) = (value, nil)
                    } else {
                        point.set(f.field, text.trimmed)
                        if f.field == .ele { point.elevation = nil }
                    }
                    field = nil
                } else if let depth = pointDepth, xml.depth == depth - 1 {
                    summary.records += 1
                    emit(point, position, trackName: trackName, file: file, sink: sink)
                    pointDepth = nil
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

    static func emit(_ p: Point, _ position: Position, trackName: String?, file: String, sink: RecordSink) {
        let name = p.name.flatMap { $0.isEmpty ? nil : $0 }
        let desc = p.desc.flatMap { $0.isEmpty ? nil : $0 }
        var observation = Observation(file: file, line: p.line, format: .gpx, record: p.record, kind: .other,
                                      subject: name ?? (p.record == .trackPoint ? trackName : desc) ?? "")
        observation.title = p.record == .trackPoint ? trackName : nil
        observation.notes = desc
        do throws(LocatedError) {
            observation.position = try position.coordinate(p.record)
            if let elevation = p.elevation {
                observation.elevation = elevation
            } else if let ele = p.ele, !ele.isEmpty {
                guard let value = Double(numeral: ele), value.isFinite else { throw LocatedError.badValue(field: "ele", value: ele, reason: "expected metres as a decimal number") }
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
