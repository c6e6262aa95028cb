import FieldGuideCSV
import FieldGuideDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings in a seed file that hold a control character other than a tab or a line break
/// (NUL, ESC, …): JSON lets them through as `\u0000` or `\u001b`, the apps would not.
/// A NUL cuts the text where C strings meet it, an escape sequence recolours a terminal, and
/// neither is ever meant in a name, a description or a note. Each such string is an error at
/// its own line and column.
///
/// ```swift
/// ControlCharacterRule.check(document, sink: sink)
/// // bird_database.json:113:27: error: a control character (U+0000) in "Mal\u{0}lard": …
/// ```
enum ControlCharacterRule {
    static func check(_ document: JSONDocument, sink: FindingSink) {
        guard mayHoldControl(document.bytes) else { return }
        var path: [Token] = []
        visit(document.root, path: &path, sink: sink)
    }

    private enum Token {
        case key(String)
        case index(Int)
    }

    private static func visit(_ value: JSONValue, path: inout [Token], sink: FindingSink) {
        switch value.content {
        case let .string(text):
            if let scalar = FileText.firstControlCharacter(in: text) { report(text, scalar, at: value.offset, path: path, sink: sink) }
        case let .array(items):
            for (index, item) in items.enumerated() {
                path.append(.index(index))
                visit(item, path: &path, sink: sink)
                path.removeLast()
            }
        case let .object(members):
            for member in members {
                path.append(.key(member.key))
                visit(member.value, path: &path, sink: sink)
                path.removeLast()
            }
        case .null, .bool, .number: break
        }
    }

    /// Whether the document's bytes could give a string a control character: the parser
    /// refuses raw ones but DEL, so only DEL or an escape (`\b`, `\f`, `\u0000`-`\u001f`,
    /// `\u007f`) can. Why: most seeds have none, and this scan costs a tenth of walking every
    /// value (callgrind, `validate` over a 2,300-bird seed: the walk alone added 5%).
    static func mayHoldControl(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            if memchr(base, 0x7F, buffer.count) != nil { return true }
            var index = 0
            while index < buffer.count, let found = memchr(base + index, 0x5C, buffer.count - index) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard at + 1 < buffer.count else { return false }
                switch buffer[at + 1] {
                case UInt8(ascii: "b"), UInt8(ascii: "f"): return true
                case UInt8(ascii: "u") where at + 5 < buffer.count && buffer[at + 2] == UInt8(ascii: "0") && buffer[at + 3] == UInt8(ascii: "0"):
                    let high = buffer[at + 4], low = buffer[at + 5] | 0x20   // lowercased hex
                    if high == UInt8(ascii: "0") || high == UInt8(ascii: "1") { return true }
                    if high == UInt8(ascii: "7") && low == UInt8(ascii: "f") { return true }
                default: break
                }
                index = at + 2   // past the escaped character, so `\\u0000` is not read as an escape
            }
            return false
        }
    }

    private static func report(_ text: String, _ scalar: Unicode.Scalar, at offset: Int, path: [Token], sink: FindingSink) {
        var pointer = ""
        for token in path {
            switch token {
            case let .key(key): pointer = JSONPointer.appending(pointer, key)
            case let .index(index): pointer = JSONPointer.appending(pointer, index)
            }
        }
        sink.add(.error, .text, at: pointer, offset: offset,
                 "a control character (\(FileText.codePoint(scalar))) in \"\(LocatedError.shortened(text))\": apps would show it as garbage or cut the text there")
    }
}
