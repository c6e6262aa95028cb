@testable import FieldGuideExports
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// A binary property list built by hand: objects in order, the offset table, the trailer (each
/// part can be set wrong on purpose).
struct HandBuiltPlist {
    var objects: [[UInt8]]
    var root: UInt64 = 0
    var offsetSize: UInt8 = 2, referenceSize: UInt8 = 1
    var objectCount: UInt64?
    var tableStart: UInt64?
    /// Offsets written instead of the real ones (by object).
    var offsets: [Int: UInt64] = [:]

    var bytes: [UInt8] {
        var out = Array("bplist00".utf8), real: [UInt64] = []
        for object in objects { real.append(UInt64(out.count)); out += object }
        let table = UInt64(out.count)
        for (i, offset) in real.enumerated() { out += Self.bigEndian(offsets[i] ?? offset, offsetSize) }
        out += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        out += Self.bigEndian(objectCount ?? UInt64(objects.count), 8) + Self.bigEndian(root, 8) + Self.bigEndian(tableStart ?? table, 8)
        return out
    }

    static func bigEndian(_ value: UInt64, _ size: UInt8) -> [UInt8] { (0..<Int(size)).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
    static func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
    static func array(_ references: [UInt8]) -> [UInt8] { [0xA0 | UInt8(references.count)] + references }
    static func dictionary(_ keys: [UInt8], _ values: [UInt8]) -> [UInt8] { [0xD0 | UInt8(keys.count)] + keys + values }
}

@Suite("Binary property lists (bplist00): the XML reader's values, every offset checked")
struct BinaryPropertyListTests {
    /// `path` written again as a binary property list by Foundation (CoreFoundation's writer).
    static func binaryCopy(of path: String, in directory: URL) throws -> String {
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: path)), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        let copy = directory.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
        try binary.write(to: URL(fileURLWithPath: copy))
        return copy
    }

    /// Dictionaries in key order (Foundation's writer keeps no file order), all the way down.
    static func sorted(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .array(let items): .array(items.map(sorted))
        case .dictionary(let entries): .dictionary(entries.map { ($0.key, sorted($0.value)) }.sorted { $0.0 < $1.0 })
        default: value
        }
    }

    static func values(_ path: String) throws -> [PropertyListValue] {
        var values: [PropertyListValue] = []
        try PropertyListReader.values(path: path) { value, _ in values.append(sorted(value)) }
        return values
    }

    @Test("input/'s plists and the real ExifTool and Day One ones, written binary by Foundation: the same values, the same observations")
    func sameAsXML() throws {
        let directory = try TestPaths.temporaryDirectory("bplist")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = try FileManager.default.contentsOfDirectory(atPath: ExportFixtures.input + "/plist").sorted().map { ExportFixtures.input + "/plist/" + $0 }
        for real in ["exports/plist/exiftool_PLIST-xml.plist", "exports/plist/jrnl_dayone_mac18_4BB1F469.doentry"] {
            if let url = TestPaths.shared(real) { files.append(url.path) }
        }
        #expect(files.count >= 3)
        for xml in files {
            let binary = try Self.binaryCopy(of: xml, in: directory)
            let expected = try Self.values(xml)
            #expect(!expected.isEmpty)
            #expect(try Self.values(binary) == expected, "\(xml)")
            let (fromXML, fromBinary) = (try readExport(xml), try readExport(binary))
            #expect(fromBinary.summary == fromXML.summary, "\(xml)")
            func shown(_ o: Observation) -> String { "\(o.kind) \(o.subject) \(o.time?.utc ?? "-") \(o.position.map { "\($0.latitude),\($0.longitude)" } ?? "-")" }
            #expect(fromBinary.observations.map(shown) == fromXML.observations.map(shown), "\(xml)")
            // A binary file has no lines: a record is at its place in the top-level array.
            let positions = fromBinary.observations.map(\.line)
            #expect(positions.first.map { $0 >= 1 } ?? true && positions == positions.sorted() && Set(positions).count == positions.count, "\(positions)")
        }
    }

    @Test("a binary plist written by Python's plistlib (keys in file order): the values of the XML file it was written from, in order")
    func pythonWritten() throws {
        var (binary, xml) = ([PropertyListValue](), [PropertyListValue]())
        try PropertyListReader.values(path: ExportFixtures.broken("birdcall-recordings-binary.plist")) { value, _ in binary.append(value) }
        try PropertyListReader.values(path: ExportFixtures.input + "/plist/birdcall-recordings.plist") { value, _ in xml.append(value) }
        #expect(binary.count == 2 && binary == xml)
    }

    @Test("every object type: integers of 1 to 16 bytes, reals of 4 and 8, dates, data, ASCII and UTF-16 strings, sets, lengths past 14")
    func objectTypes() throws {
        let long = String(repeating: "x", count: 20)
        var plist = HandBuiltPlist(objects: [
            HandBuiltPlist.array(Array(1...12)),
            [0x10, 0xFF], [0x11, 0x01, 0x00], [0x13] + HandBuiltPlist.bigEndian(UInt64(bitPattern: -5), 8),
            [0x14] + HandBuiltPlist.bigEndian(0, 8) + HandBuiltPlist.bigEndian(7, 8),
            [0x22] + HandBuiltPlist.bigEndian(UInt64(Float(1.5).bitPattern), 4), [0x23] + HandBuiltPlist.bigEndian(1.4.bitPattern, 8),
            [0x33] + HandBuiltPlist.bigEndian(Double(383_229_750).bitPattern, 8),   // 2013-02-22T12:42:30Z
            [0x42, 0x00, 0xFF], [0x5F, 0x10, 20] + Array(long.utf8),
            [0x62, 0x00, 0xE9, 0xD8, 0x3D],   // é, then the first half of a pair: refused below
            [0xC1, 0x01], [0x08],
        ])
        var values: [PropertyListValue] = []
        let unpaired = Self.refusal(plist.bytes)
        #expect(unpaired?.description.contains("expected UTF-16 text, found an unpaired surrogate") == true, "\(unpaired?.description ?? "read")")
        plist.objects[10] = [0x62, 0x00, 0xE9, 0x00, 0x21]
        try Self.read(plist.bytes) { values.append($0) }
        #expect(values == [.integer(255), .integer(256), .integer(-5), .integer(7), .real(1.5), .real(1.4), .date("2013-02-22T12:42:30Z"),
                           .data([0, 255]), .string(long), .string("é!"), .array([.integer(255)]), .boolean(false)])
    }

    @Test("dates at the edges: before 2001, the years 1 and 9999, whole seconds as the XML form keeps them; past them refused")
    func dates() {
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: 0) == "2001-01-01T00:00:00Z")
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: -1.5) == "2000-12-31T23:59:58Z")
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: 4_107_455_999.9) == "2131-02-28T23:59:59Z")
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: -26_481_600) == "2000-02-29T12:00:00Z")
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: -63_113_904_000) == "0001-01-01T00:00:00Z")
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: 252_423_993_599) == "9999-12-31T23:59:59Z")
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: 252_423_993_600) == nil)
        #expect(BinaryPropertyList.isoDate(sinceReferenceDate: .nan) == nil && BinaryPropertyList.isoDate(sinceReferenceDate: -.infinity) == nil)
        // Every day of 1999-2001 against Foundation's calendar.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for day in -800...400 {
            let seconds = Double(day) * 86_400 + 3_661
            let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSinceReferenceDate: seconds))
            let expected = String(format: "%04d-%02d-%02dT01:01:01Z", c.year!, c.month!, c.day!)
            #expect(BinaryPropertyList.isoDate(sinceReferenceDate: seconds) == expected)
        }
    }

    static func read(_ bytes: [UInt8], _ body: (PropertyListValue) -> Void = { _ in }) throws(LocatedError) {
        var reader = try BinaryPropertyList(bytes: bytes, file: "crafted.plist")
        try reader.stream { value, _ in body(value) }
    }

    static func refusal(_ bytes: [UInt8]) -> LocatedError? {
        do { try read(bytes); return nil } catch { return error }
    }

    @Test("crafted files: a typed error naming what is wrong, never a trap or a read past the end", arguments: [
        ("a cycle", HandBuiltPlist(objects: [HandBuiltPlist.array([1]), HandBuiltPlist.array([0])]), "object 0 at byte 8: it contains itself"),
        ("a dictionary holding itself", HandBuiltPlist(objects: [HandBuiltPlist.dictionary([1], [0]), HandBuiltPlist.ascii("k")]), "it contains itself"),
        ("an offset past the objects", HandBuiltPlist(objects: [HandBuiltPlist.array([1]), [0x08]], offsets: [1: 60_000]), "object 1 is said to start at byte 60000"),
        ("an offset into the header", HandBuiltPlist(objects: [[0x08]], offsets: [0: 3]), "object 0 is said to start at byte 3"),
        ("a reference past the objects", HandBuiltPlist(objects: [HandBuiltPlist.array([9])]), "names object 9 of 1"),
        ("a length past the objects", HandBuiltPlist(objects: [[0x5F, 0x13] + HandBuiltPlist.bigEndian(UInt64(Int64.max), 8)]), "run past the objects"),
        ("a negative length", HandBuiltPlist(objects: [[0xAF, 0x13] + HandBuiltPlist.bigEndian(UInt64(bitPattern: -2), 8)]), "a negative length -2"),
        ("a length not an integer", HandBuiltPlist(objects: [[0x5F, 0x50]]), "expected a length as an integer, found the marker 0x50"),
        ("an integer of 32 bytes", HandBuiltPlist(objects: [[0x15] + Array(repeating: 0, count: 32)]), "an integer of 32 bytes"),
        ("an integer past 64 bits", HandBuiltPlist(objects: [[0x14] + HandBuiltPlist.bigEndian(1, 8) + HandBuiltPlist.bigEndian(0, 8)]), "expected a signed 64-bit integer"),
        ("a real cut short", HandBuiltPlist(objects: [[0x23, 0x40]]), "its 8 bytes run past the objects"),
        ("a NaN real", HandBuiltPlist(objects: [[0x23] + HandBuiltPlist.bigEndian(Double.nan.bitPattern, 8)]), "expected a finite real number"),
        ("a date past 9999", HandBuiltPlist(objects: [[0x33] + HandBuiltPlist.bigEndian(1e300.bitPattern, 8)]), "expected a date in years 1 to 9999"),
        ("a Latin-1 ASCII string", HandBuiltPlist(objects: [[0x52, 0x4A, 0xC9]]), "expected an ASCII string"),
        ("a UID", HandBuiltPlist(objects: [[0x80, 0x01]]), "found a UID (an NSKeyedArchiver archive"),
        ("a null", HandBuiltPlist(objects: [[0x00]]), "found the marker 0x00"),
        ("a key that is a number", HandBuiltPlist(objects: [HandBuiltPlist.dictionary([1], [1]), [0x10, 0x01]]), "key 1 (object 1) is not a string"),
        ("a root past the objects", HandBuiltPlist(objects: [[0x08]], root: 1), "the root object is 1 of 1"),
        ("sizes of 0 and 9", HandBuiltPlist(objects: [[0x08]], offsetSize: 9, referenceSize: 0), "expected 1 to 8 each"),
        ("2^63 objects", HandBuiltPlist(objects: [[0x08]], objectCount: 1 << 63), "the trailer's object count is 9223372036854775808"),
        ("a table over the trailer", HandBuiltPlist(objects: [[0x08]], objectCount: 2), "does not fit before the trailer"),
        ("a table start in the header", HandBuiltPlist(objects: [[0x08]], tableStart: 2), "does not fit before the trailer"),
    ])
    func crafted(_ name: String, _ plist: HandBuiltPlist, _ message: String) {
        let error = Self.refusal(plist.bytes)
        #expect(error?.description.hasPrefix("crafted.plist: binary property list: ") == true && error?.description.contains(message) == true,
                "\(name): \(error?.description ?? "read")")
    }

    @Test("nested 300 deep; 30 arrays each holding the next 14 times (14^30 values from 500 bytes) in one record; 100 records of 14^4; a 1 MiB data object copied 300 and 1,100 times: refused by the bounds")
    func bounds() {
        // References of 2 bytes, so that 300 objects can be named.
        let deepBytes = HandBuiltPlist(objects: (0..<300).map { i in i == 299 ? [0x08] : [0xA1] + HandBuiltPlist.bigEndian(UInt64(i + 1), 2) },
                                       referenceSize: 2).bytes
        #expect(Self.refusal(deepBytes)?.description.contains("nested more than 256 containers deep") == true)
        // One record: a top-level dictionary whose one value is the first of the 30 arrays.
        var nested = (0..<31).map { i in i == 30 ? [UInt8(0x08)] : HandBuiltPlist.array(Array(repeating: UInt8(i + 2), count: 14)) }
        nested.insert(HandBuiltPlist.dictionary([32], [1]), at: 0)
        nested.append(HandBuiltPlist.ascii("k"))
        let record = Self.refusal(HandBuiltPlist(objects: nested).bytes)
        #expect(record?.kind == .tooLarge && record?.description.contains("a record of more than 1000000 values") == true, "\(record?.description ?? "read")")
        // 100 records of 14^4 values each: each under the record bound, the file over its own.
        var many: [[UInt8]] = [[0xAF, 0x10, 100] + Array(repeating: 1, count: 100)]   // a length past 14 follows the marker
        many += (1...4).map { i in HandBuiltPlist.array(Array(repeating: UInt8(i + 1), count: 14)) } + [[0x08]]
        // One record: an array naming a 1 MiB data object 300 times (300 MiB of copies from 1 MiB), then
        // 1,100 records naming it once each (1.1 GiB); and an array claiming 2^28 elements in 64
        // bytes, refused from its length before anything is made.
        let data: [UInt8] = [0x4F, 0x12] + HandBuiltPlist.bigEndian(1 << 20, 4) + Array(repeating: 7, count: 1 << 20)
        let copies = HandBuiltPlist(objects: [HandBuiltPlist.array([1]), [0xAF, 0x11, 0x01, 0x2C] + Array(repeating: 2, count: 300), data], offsetSize: 4)
        let copied = Self.refusal(copies.bytes)
        #expect(copied?.kind == .tooLarge && copied?.description.contains("more than 256 MiB of data and text in a record") == true, "\(copied?.description ?? "read")")
        let spread = HandBuiltPlist(objects: [[0xAF, 0x11, 0x04, 0x4C] + Array(repeating: 1, count: 1_100), data], offsetSize: 4)
        let total = Self.refusal(spread.bytes)
        #expect(total?.kind == .tooLarge && total?.description.contains("more than 1 GiB of data and text in the file") == true, "\(total?.description ?? "read")")
        let claimed = HandBuiltPlist(objects: [[0xAF, 0x12] + HandBuiltPlist.bigEndian(1 << 28, 4) + Array(repeating: 0, count: 64)])
        #expect(Self.refusal(claimed.bytes)?.description.contains("run past the objects") == true)
        let file = Self.refusal(HandBuiltPlist(objects: many).bytes)
        #expect(file?.kind == .tooLarge && file?.description.contains("more than 1000384 values from 6 objects") == true, "\(file?.description ?? "read")")
    }

    @Test("every byte of input/'s capture plist, written binary by Foundation, set to 0x00, 0x0F, 0x7F, 0x80 and 0xFF in turn: read or refused, never a trap")
    func everyByteMutated() throws {
        let directory = try TestPaths.temporaryDirectory("bplist-mutated")
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.binaryCopy(of: ExportFixtures.input + "/plist/aircraft-captures.plist", in: directory))))
        var (read, refused) = (0, 0)
        for i in binary.indices {
            for byte: UInt8 in [0x00, 0x0F, 0x7F, 0x80, 0xFF] where binary[i] != byte {
                var mutated = binary
                mutated[i] = byte
                if let error = Self.refusal(mutated) {
                    refused += 1
                    #expect(error.file == "crafted.plist" && !error.message.isEmpty)
                } else {
                    read += 1
                }
            }
        }
        #expect(refused > 100 && read > 100, "\(refused) refused, \(read) read")
    }

    @Test("ingest-exports: a binary plist imported beside the XML ones; a cyclic one refused at its object, the others imported; other binary data and UTF-16 named")
    func throughTheExecutable() throws {
        let directory = try TestPaths.temporaryDirectory("bplist-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        _ = try Self.binaryCopy(of: ExportFixtures.input + "/plist/aircraft-captures.plist", in: inputs)
        let ok = try TestPaths.run("ingest-exports", [inputs.path, "--output", directory.path + "/ok"])
        #expect(ok.status == 0 && ok.stderr.contains("aircraft-captures.plist: plist: 3 records → 3 aircraft"), "\(ok.stderr)")
        try Data(HandBuiltPlist(objects: [HandBuiltPlist.array([1]), HandBuiltPlist.array([0])]).bytes).write(to: inputs.appendingPathComponent("loop.plist"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)).write(to: inputs.appendingPathComponent("photo.xml"))
        let bad = try TestPaths.run("ingest-exports", [inputs.path, "--output", directory.path + "/bad"])
        #expect(bad.status == 1, "\(bad.stderr)")
        #expect(bad.stderr.contains("loop.plist: binary property list: object 0 at byte 8: it contains itself (a cycle through its references)"), "\(bad.stderr)")
        #expect(bad.stderr.contains("photo.xml: not an export this reader knows (expected XML, a CSV header or a binary property list (bplist00); found binary data (a NUL byte at byte 5))"), "\(bad.stderr)")
        // A GPX saved as UTF-16 (Notepad's "Unicode"): named as such, not as Latin-1 in field 1.
        let gpx = try String(contentsOfFile: ExportFixtures.input + "/gpx/lake-walk.gpx", encoding: .utf8)
        try gpx.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"").data(using: .utf16LittleEndian)
            .map { Data([0xFF, 0xFE]) + $0 }!.write(to: inputs.appendingPathComponent("lake16.gpx"))
        let utf16 = try TestPaths.run("ingest-exports", [inputs.path, "--output", directory.path + "/utf16"])
        #expect(utf16.stderr.contains("lake16.gpx:1:1: text in UTF-16; re-export as UTF-8 (expected UTF-8 text; found UTF-16 (the byte-order mark FF FE))"), "\(utf16.stderr)")
        let observations = try String(contentsOfFile: directory.path + "/bad/observations.csv", encoding: .utf8)
        #expect(observations.components(separatedBy: ",aircraft capture,").count == 4)
    }
}
