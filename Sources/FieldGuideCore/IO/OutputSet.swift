import FieldGuideDiagnostics

/// A stage's outputs, each written beside its destination and flushed to disk, then renamed
/// into place together by `commit()`: a run that cannot write one of them (a full disk, a
/// file-size limit) leaves every destination as an earlier run left it, and a set dropped
/// without `commit()` drops its temporary files. (A rename that fails part-way is the one
/// window left: it needs no space.)
///
/// ```swift
/// let outputs = OutputSet()
/// let species = try outputs.write(speciesCSV, to: "output/stage/birds/species.csv")   // size, SHA-256
/// try outputs.write(try report.encoded(), to: "output/stage/birds/birds-ingest.json")
/// try outputs.commit()
/// ```
public final class OutputSet {
    private var writers: [AtomicFileWriter] = []

    public init() {}

    /// Writes `bytes` beside `path` and flushes them to disk; their size and SHA-256.
    @discardableResult
    public func write(_ bytes: [UInt8], to path: String) throws(LocatedError) -> (bytes: Int, sha256: String) {
        let writer = try AtomicFileWriter(path: path)
        try writer.write(bytes)
        try add(writer)
        return (bytes.count, FileDigest.sha256(bytes))
    }

    /// Takes a writer its caller filled, flushing it to disk.
    public func add(_ writer: AtomicFileWriter) throws(LocatedError) {
        try writer.sync()
        writers.append(writer)
    }

    /// Renames every file into place, in the order they were added.
    public func commit() throws(LocatedError) {
        for writer in writers { try writer.commit() }
        writers.removeAll()
    }
}
