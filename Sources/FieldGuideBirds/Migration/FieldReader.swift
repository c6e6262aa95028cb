#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Typed access to one JSON object's members that reports every missing or mistyped field
/// to a `FindingSink` (a schema error with the field's pointer and line:column) instead of
/// stopping at the first.
///
/// ```swift
/// let reader = FieldReader(value, pointer: "/birds/3", sink: sink)
/// let name = reader.string("commonName")              // nil + a finding when absent or not a string
/// let size = reader.int("size_category", at: "attributes/size_category")
/// ```
struct FieldReader {
    let value: JSONValue
    let pointer: String
    let sink: FindingSink

    /// Nil (after a schema error) when `value` is not an object.
    init?(_ value: JSONValue, pointer: String, sink: FindingSink, what: String) {
        guard let members = value.members else {
            sink.add(.error, .schema, at: pointer, offset: value.offset, "expected \(what) to be an object, found \(value.kindDescription)")
            return nil
        }
        self.value = value
        self.pointer = pointer
        self.sink = sink
        Self.reportDuplicateKeys(members, pointer: pointer, sink: sink)
    }

    private static func reportDuplicateKeys(_ members: [JSONMember], pointer: String, sink: FindingSink) {
        guard members.count > 1 else { return }
        for i in 1..<members.count {
            let key = members[i].key
            for j in 0..<i where members[j].key == key {
                let first = sink.document?.location(ofOffset: members[j].keyOffset)
                sink.add(.error, .schema, at: JSONPointer.appending(pointer, key), offset: members[i].keyOffset,
                         "duplicate key \"\(key)\"\(first.map { " (first at \($0))" } ?? ""): readers keep only one of them")
                break
            }
        }
    }

    /// The member at `path` (one or more `/`-separated keys), without reporting anything.
    func lookup(_ path: String) -> JSONValue? {
        if !Self.isNested(path) { return value[path] }
        var current = value
        for key in path.split(separator: "/") {
            guard let next = current[String(key)] else { return nil }
            current = next
        }
        return current
    }

    /// Whether `path` holds a `/`.
    ///
    /// `memchr` over its bytes, not `path.utf8.contains(_:)`: that call went to Foundation's
    /// prebuilt copy of it for `String.UTF8View`, which walks the view generically, about 300
    /// instructions for a short key (callgrind, `birds-bench`: 111 M of a world-size seed's
    /// 3,500 M); a `for` loop over the view cost more still.
    @inline(__always)
    private static func isNested(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { !$0.isEmpty && memchr($0.baseAddress!, Int32(UInt8(ascii: "/")), $0.count) != nil }
    }

    func has(_ path: String) -> Bool { lookup(path) != nil }

    /// The pointer of the member at `path`.
    ///
    /// Split as bytes when it is nested: `String.split` walks characters, about 5,600
    /// instructions a path (`birds-bench`).
    func fieldPointer(_ path: String) -> String {
        guard Self.isNested(path) else { return JSONPointer.appending(pointer, path) }
        return path.utf8.split(separator: UInt8(ascii: "/")).reduce(pointer) { JSONPointer.appending($0, String(Substring($1))) }
    }

    /// The value at `path`; a schema error when it is required and absent. `null` counts as absent.
    func value(_ path: String, required: Bool) -> JSONValue? {
        guard let found = lookup(path), !found.isNull else {
            if required { missing(path) }
            return nil
        }
        return found
    }

    func missing(_ path: String) {
        sink.add(.error, .schema, at: fieldPointer(path), offset: value.offset, "missing required key \"\(path)\"")
    }

    func mistyped(_ path: String, _ found: JSONValue, expected: String) {
        sink.add(.error, .schema, at: fieldPointer(path), offset: found.offset, "expected \"\(path)\" to be \(expected), found \(found.kindDescription)")
    }

    func string(_ path: String, required: Bool = true) -> String? {
        guard let found = value(path, required: required) else { return nil }
        guard let string = found.string else { mistyped(path, found, expected: "a string"); return nil }
        return string
    }

    func int(_ path: String, required: Bool = true) -> Int? {
        guard let found = value(path, required: required) else { return nil }
        guard let int = found.integer else { mistyped(path, found, expected: "an integer"); return nil }
        return int
    }

    func double(_ path: String, required: Bool = true) -> Double? {
        guard let found = value(path, required: required) else { return nil }
        guard let double = found.double else { mistyped(path, found, expected: "a number"); return nil }
        return double
    }

    /// The elements of the array at `path` with their pointers.
    func array(_ path: String, required: Bool = true) -> [(value: JSONValue, pointer: String)]? {
        guard let found = value(path, required: required) else { return nil }
        guard let items = found.array else { mistyped(path, found, expected: "an array"); return nil }
        let base = fieldPointer(path)
        return items.enumerated().map { ($1, JSONPointer.appending(base, $0)) }
    }

    /// Every string of the array at `path` (a schema error for each element that is not one).
    func strings(_ path: String, required: Bool = false) -> [String]? {
        elements(path, required: required, expected: "strings") { $0.string }
    }

    func ints(_ path: String, required: Bool = false) -> [Int]? {
        elements(path, required: required, expected: "integers") { $0.integer }
    }

    func doubles(_ path: String, required: Bool = false) -> [Double]? {
        elements(path, required: required, expected: "numbers") { $0.double }
    }

    /// The elements of the array at `path` converted by `convert`; pointers are built only for errors.
    private func elements<T>(_ path: String, required: Bool, expected: String, _ convert: (JSONValue) -> T?) -> [T]? {
        guard let found = value(path, required: required) else { return nil }
        guard let items = found.array else { mistyped(path, found, expected: "an array"); return nil }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let converted = convert(item) { out.append(converted) } else {
                sink.add(.error, .schema, at: JSONPointer.appending(fieldPointer(path), index), offset: item.offset,
                         "expected the elements of \"\(path)\" to be \(expected), found \(item.kindDescription)")
            }
        }
        return out
    }

    /// Objects of the array at `path`, each as a reader (non-objects are reported and skipped).
    func objects(_ path: String, required: Bool = true, what: String) -> [FieldReader]? {
        guard let items = array(path, required: required) else { return nil }
        return items.compactMap { FieldReader($0.value, pointer: $0.pointer, sink: sink, what: what) }
    }
}
