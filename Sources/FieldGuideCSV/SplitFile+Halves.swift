import FieldGuideWorkers

/// A digest fed a file's bytes in order as they stream past (a running SHA-256).
public protocol RunningDigest: Sendable {
    mutating func update(_ chunk: UnsafeRawBufferPointer)
}

extension SplitFile {
    /// Parses the two halves at once, the first on this thread and the second on another, and
    /// hashes the file meanwhile: the one split reader of the batch stages.
    ///
    /// `read` is called once per half, on the half's thread, and parses it with `Half.parse`:
    /// each half's records reach their own `read`, in file order, with their real line numbers.
    /// The first half hashes its bytes as it parses them, then hands the rest of the file to a
    /// thread of its own to hash: the digest comes back still running, to be waited for last.
    /// A second parser can start at the cut only when no value holds a line feed (see
    /// `SplitFile`).
    ///
    /// ```swift
    /// var read = file.readHalves(dialect: .fixedWidth, hashing: StreamingDigest()) { half in
    ///     var part = Part()
    ///     try half.parse { record in
    ///         if half.isFirst && record.index == 0 { try checkHeader(record) } else { part.add(record) }
    ///     }
    ///     return part
    /// }
    /// let parts = try read.takeOutputs()          // the first error in file order, if any
    /// let digest = try read.digest!.value()       // the whole file's
    /// ```
    public func readHalves<Output: Sendable, Digest: RunningDigest>(
        dialect: CSVDialect, hashing digest: Digest, _ read: @escaping @Sendable (Half<Digest>) throws -> Output
    ) -> SplitRead<Output, Digest> {
        let file = self
        var halves = Concurrently.run(2) { index in
            let half = Half(file: file, isFirst: index == 0, dialect: dialect, digest: index == 0 ? digest : nil)
            let output = Result { try read(half) }
            return (output: output, tail: half.tail)
        }.map { $0.get() }
        // Moved out, not copied: an output changed in place later is not copied then.
        let second = halves.removeLast(), first = halves.removeLast()
        return SplitRead(outputs: [first.output, second.output], digest: first.tail)
    }

    /// One half of a split file, as `readHalves` hands it to the half's thread.
    public final class Half<Digest: RunningDigest> {
        /// Whether this half starts the file. Both halves number their records from index 0:
        /// only the first half's record 0 is the file's first (its header, if it has one).
        public let isFirst: Bool
        private let file: SplitFile
        /// The file's name, as errors give it.
        public var name: String { file.name }
        private let dialect: CSVDialect
        /// The first half's digest, until it goes to the tail's thread.
        private var digest: Digest?
        /// The rest of the file's hash, started once the first half is parsed.
        fileprivate private(set) var tail: BackgroundTask<Digest>?
        private var parsed = false

        fileprivate init(file: SplitFile, isFirst: Bool, dialect: CSVDialect, digest: Digest?) {
            self.file = file
            self.isFirst = isFirst
            self.dialect = dialect
            self.digest = digest
        }

        /// Parses the half, calling `body` with each record in order; once only.
        public func parse(_ body: (CSVRecord) throws -> Void) throws {
            precondition(!parsed, "a half parsed twice")
            parsed = true
            if isFirst { try parseFirst(body) } else { try parseSecond(body) }
        }

        private func parseFirst(_ body: (CSVRecord) throws -> Void) throws {
            var digest = self.digest!
            self.digest = nil
            let parser = try CSVParser(dialect: dialect, file: file.name)
            try file.read(0..<file.cut) { chunk in
                digest.update(chunk)
                try parser.parse(chunk, body)
            }
            try parser.finish(body)
            // This thread is done with the digest: the copy is the task's alone.
            let file = file, firstHalf = digest
            tail = BackgroundTask {
                var digest = firstHalf
                try file.read(file.cut..<file.size) { digest.update($0) }
                return digest
            }
        }

        private func parseSecond(_ body: (CSVRecord) throws -> Void) throws {
            var dialect = dialect
            dialect.skipsByteOrderMark = false  // not the start of the file
            let parser = try CSVParser(dialect: dialect, file: file.name, firstLine: try file.lineFeedsBeforeCut() + 1)
            try file.read(file.cut..<file.size) { chunk in try parser.parse(chunk, body) }
            try parser.finish(body)
        }
    }
}

/// What `SplitFile.readHalves` read: each half's output, and the file's digest.
public struct SplitRead<Output: Sendable, Digest: RunningDigest>: Sendable {
    /// How each half's `read` ended, in file order.
    public private(set) var outputs: [Result<Output, any Error>]
    /// The whole file's digest, finished on a thread of its own; nil when the first half was not
    /// parsed to its end (its error comes first anyway).
    public let digest: BackgroundTask<Digest>?

    /// The outputs in file order, or the first error in file order (the first half's before
    /// the second's). Takes them out: the outputs' only copies are returned, so a part changed
    /// in place afterwards is not copied.
    public mutating func takeOutputs() throws -> [Output] {
        let outcomes = outputs
        outputs = []
        return try outcomes.map { try $0.get() }
    }
}
