import FieldGuideDiagnostics
import Foundation

/// Deterministic JSON for reports and manifests: sorted keys, pretty printed, final newline.
public enum JSON {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
    }

    /// `encode`, with a value JSON cannot hold (a NaN, say) reported as `.unwritable` at
    /// `path`, the file it was meant for.
    public static func encode<T: Encodable>(_ value: T, for path: String) throws(LocatedError) -> [UInt8] {
        do { return try encode(value) } catch let EncodingError.invalidValue(_, context) {
            throw LocatedError(.unwritable, file: path, field: LocatedError.field(context.codingPath),
                               message: "cannot encode as JSON: \(context.debugDescription)")
        } catch {
            throw LocatedError(.unwritable, file: path, message: "cannot encode as JSON")
        }
    }

    /// Encodes `value` and writes it to `path` atomically.
    public static func write<T: Encodable>(_ value: T, to path: String) throws(LocatedError) {
        try AtomicFile.write(try encode(value, for: path), to: path)
    }

    /// Reads and decodes a JSON file; `document` names what it should hold in errors
    /// (`faa-ingest.json: status: missing key in the ingest report`).
    public static func decode<T: Decodable>(_ type: T.Type, fromFileAt path: String,
                                            as document: String = "the JSON file") throws(LocatedError) -> T {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw LocatedError(path, failed: error) }
        do { return try JSONDecoder().decode(type, from: data) } catch { throw LocatedError(decoding: error, file: path, in: document) }
    }
}
