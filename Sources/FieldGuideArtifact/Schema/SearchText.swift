/// The one way aircraft names are cut into search atoms, at emit time and at query time alike.
///
/// Text is folded (`NameFolding`: case, diacritics and width); runs of letters and digits are
/// *segments*, everything else separates them; a segment is cut into *atoms* where letters meet
/// digits. So case, punctuation, hyphens and spacing never matter: `SR22`, `sr-22` and `SR 22`
/// are the atoms `SR`, `22`, and the *compact* form (the atoms joined) is `SR22` for all three.
///
/// ```swift
/// let tokens = SearchText.Tokens("Airbus A-320neo")
/// tokens.atoms.map { String(decoding: tokens[$0], as: UTF8.self) }   // ["AIRBUS", "A", "320", "NEO"]
/// tokens.atoms.map(\.segment)                                          // [0, 1, 2, 2]
/// String(decoding: tokens.compact, as: UTF8.self)                      // "AIRBUSA320NEO"
/// ```
public enum SearchText {
    /// Atoms longer than this are not indexed (and a query atom longer than this finds nothing
    /// through the dictionary).
    public static let maximumAtomLength = 32

    /// One atom: a stretch of the folded bytes, its segment, and whether it is digits.
    public struct Atom: Sendable, Hashable {
        public var start: Int
        public var end: Int
        /// The segment it belongs to, counted from 0.
        public var segment: Int
        public var isDigits: Bool
        public var count: Int { end - start }
    }

    /// Folded text and its atoms.
    public struct Tokens: Sendable {
        /// The folded bytes (ASCII letters upper-cased).
        public let bytes: [UInt8]
        public let atoms: [Atom]

        public init(_ text: String) {
            self.init(folded: SearchText.fold(text))
        }

        /// Tokens of stored text (upper-casing ASCII; other text is folded as a string).
        public init(_ stored: UnsafeRawBufferPointer) {
            if stored.allSatisfy({ $0 < 0x80 }) {
                self.init(folded: stored.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 })
            } else {
                self.init(String(decoding: stored, as: UTF8.self))
            }
        }

        init(folded: [UInt8]) {
            bytes = folded
            var atoms: [Atom] = []
            atoms.reserveCapacity(8)
            var segment = -1
            var previous: UInt8 = 0  // class of the previous byte: 0 separator, 1 letter, 2 digit
            for (i, byte) in folded.enumerated() {
                let kind = SearchText.characterClass(byte)
                if kind == 0 {
                    previous = 0
                    continue
                }
                if previous == 0 { segment += 1 }
                if kind != previous || atoms.isEmpty {
                    atoms.append(Atom(start: i, end: i + 1, segment: segment, isDigits: kind == 2))
                } else {
                    atoms[atoms.count - 1].end = i + 1
                }
                previous = kind
            }
            self.atoms = atoms
        }

        /// The bytes of an atom.
        public subscript(atom: Atom) -> ArraySlice<UInt8> { bytes[atom.start..<atom.end] }

        /// The atoms joined: what "the same name" compares.
        public var compact: [UInt8] { atoms.flatMap { bytes[$0.start..<$0.end] } }

        /// Whether `compact` equals `other`'s atoms joined after these (`other` may be nil):
        /// `compact == other.compact` or `compact + other.compact`, without building either.
        public func compactEquals(_ text: [UInt8], followedBy other: Tokens? = nil) -> Bool {
            var position = 0
            func consume(_ tokens: Tokens) -> Bool {
                for atom in tokens.atoms {
                    guard position + atom.count <= text.count else { return false }
                    for k in atom.start..<atom.end where tokens.bytes[k] != text[position + k - atom.start] { return false }
                    position += atom.count
                }
                return true
            }
            guard consume(self), other.map(consume) ?? true else { return false }
            return position == text.count
        }

        /// The number of segments.
        public var segmentCount: Int { (atoms.last?.segment ?? -1) + 1 }
    }

    /// Upper-cased ASCII, else `NameFolding` (diacritics and width folded) with every other
    /// character that is neither a letter nor a digit (`—`, `·`) made a space.
    public static func fold(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        }
        var scalars = String.UnicodeScalarView()
        for scalar in NameFolding.fold(text).unicodeScalars {
            scalars.append(scalar.isASCII || scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? scalar : " ")
        }
        return Array(String(scalars).utf8)
    }

    /// 1 for a letter (and any byte of a non-ASCII character left after folding), 2 for a digit,
    /// 0 for a separator.
    @inlinable
    public static func characterClass(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x80...0xFF: return 1
        case 0x30...0x39: return 2
        default: return 0
        }
    }

    /// How many atoms stored text has (as `Tokens(stored).atoms.count`, without building them).
    @inlinable
    public static func atomCount(_ stored: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var previous: UInt8 = 0
        for byte in stored {
            let kind = characterClass(byte)
            if kind != 0 && kind != previous { count += 1 }
            previous = kind
        }
        return count
    }

    /// The distinct atoms of `text` (at most `maximumAtomLength` bytes each), for the index.
    ///
    /// ```swift
    /// SearchText.indexAtoms("CIRRUS SR-22").map { String(decoding: $0, as: UTF8.self) }   // ["CIRRUS", "SR", "22"]
    /// ```
    public static func indexAtoms(_ text: String) -> [[UInt8]] {
        indexAtoms(Tokens(text))
    }

    /// `indexAtoms` of stored bytes.
    public static func indexAtoms(_ stored: UnsafeRawBufferPointer) -> [[UInt8]] {
        indexAtoms(Tokens(stored))
    }

    private static func indexAtoms(_ tokens: Tokens) -> [[UInt8]] {
        // A name has a handful of atoms: looking back over them costs less than a set's
        // allocation and hashing, which the manufacturer index paid 200,000 times. Past 16 (a
        // crafted text), a set, so the work stays linear.
        var out: [[UInt8]] = []
        var seen = Set<[UInt8]>()   // filled only once there are 16
        for atom in tokens.atoms where atom.count <= maximumAtomLength {
            let bytes = tokens[atom]
            if out.count < 16 {
                if !out.contains(where: { $0.elementsEqual(bytes) }) { out.append(Array(bytes)) }
                continue
            }
            if seen.isEmpty { seen = Set(out) }
            let array = Array(bytes)
            if seen.insert(array).inserted { out.append(array) }
        }
        return out
    }

    /// True when `a` becomes `b` by at most one insertion, deletion, substitution or swap of two
    /// neighbours (the optimal-string-alignment distance is 0 or 1).
    ///
    /// ```swift
    /// SearchText.withinOneEdit(Array("BOENG".utf8)[...], Array("BOEING".utf8)[...])   // true
    /// ```
    public static func withinOneEdit(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in withinOneEdit(x, y) } }
    }

    /// `withinOneEdit` against stored bytes.
    public static func withinOneEdit(_ a: ArraySlice<UInt8>, _ b: UnsafeRawBufferPointer) -> Bool {
        a.withUnsafeBufferPointer { x in withinOneEdit(x, b.bindMemory(to: UInt8.self)) }
    }

    /// The comparison itself: one pass, no allocation (it runs for every word of every candidate).
    @usableFromInline
    static func withinOneEdit(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = x.count, m = y.count
        if abs(n - m) > 1 { return false }
        var i = 0
        while i < min(n, m) && x[i] == y[i] { i += 1 }
        if i == n && i == m { return true }
        if n == m {
            // One swap of neighbours, or one substitution.
            if i + 1 < n && x[i] == y[i + 1] && x[i + 1] == y[i] {
                var k = i + 2
                while k < n && x[k] == y[k] { k += 1 }
                if k == n { return true }
            }
            var k = i + 1
            while k < n && x[k] == y[k] { k += 1 }
            return k == n
        }
        // One byte more in the longer: skip it where the two first differ.
        if n > m {
            var k = i
            while k < m && x[k + 1] == y[k] { k += 1 }
            return k == m
        }
        var k = i
        while k < n && x[k] == y[k + 1] { k += 1 }
        return k == n
    }
}
