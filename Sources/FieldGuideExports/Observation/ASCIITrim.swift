extension StringProtocol {
    /// The text without leading and trailing ASCII white space (space, tab, CR, LF).
    ///
    /// XML and CSV white space is ASCII, and Foundation's `trimmingCharacters(in:)` took a third
    /// of the time of a GPX import; this works on the UTF-8 bytes.
    ///
    /// ```swift
    /// "  Grey Heron\r\n".trimmedASCII   // "Grey Heron"
    /// ```
    var trimmedASCII: String {
        let text = Substring(self)
        let utf8 = text.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(text[start..<end])
    }
}

extension String {
    /// What `StringProtocol.trimmedASCII` gives, without a copy when there is nothing to trim:
    /// the string itself comes back (its storage shared), as most values export readers trim
    /// have no white space around them.
    var trimmedASCII: String {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var text = self      // `withUTF8` needs a variable
        let padded = text.withUTF8 { $0.count > 0 && (isSpace($0[0]) || isSpace($0[$0.count - 1])) }
        return padded ? Substring(self).trimmedASCII : self
    }
}
