import FieldGuideWorkers

/// Parses CSV on a second thread while the caller consumes records: reading and libcsv on
/// one core, the caller's per-record work on the other. Records arrive in file order, in
/// batches through a bounded `WorkQueue`, so memory stays flat in the file size.
///
/// ```swift
/// let sha256 = try CSVPipeline.run(dialect: .unquoted, file: "MASTER.txt", produce: { feed in
///     var digest = StreamingDigest()
///     try stream(file) { chunk in digest.update(chunk); try feed(chunk) }   // on the parsing thread
///     return digest.finalize()
/// }) { record in
///     normalize(record)                                                      // on the calling thread
/// }
/// ```
public enum CSVPipeline {
    /// Records per hand-over between the threads.
    static let batchSize = 2_048
    /// Batches in flight at most.
    static let depth = 4

    /// `produce` gets a `feed` function and calls it with the file's chunks, in order; what it
    /// returns (a digest of the chunks, say) is returned here once every record is consumed.
    /// Errors on either side stop both; the first one is rethrown here. A parsing error reaches
    /// the caller after every record that came before it.
    @discardableResult
    public static func run<Produced: Sendable>(
        dialect: CSVDialect, file: String,
        produce: @escaping @Sendable (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Produced,
        consume: (CSVRecord) throws -> Void
    ) throws -> Produced {
        let queue = WorkQueue<[CSVRecord]>(capacity: depth)
        let producer = BackgroundTask { () throws -> Produced in
            defer { queue.close() }
            return try parse(dialect: dialect, file: file, produce: produce, into: queue)
        }
        do {
            while let batch = queue.take() {
                for record in batch { try consume(record) }
            }
        } catch {
            queue.cancel()  // the producer's next `put` fails, and it stops
            _ = producer.wait()
            throw error
        }
        return try producer.value()
    }

    /// The producer's side: parses what `produce` feeds into batches on `queue`. Every record
    /// before an error is queued before the error is thrown.
    private static func parse<Produced>(
        dialect: CSVDialect, file: String,
        produce: (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Produced,
        into queue: WorkQueue<[CSVRecord]>
    ) throws -> Produced {
        // The batch behind a pointer: a `var` captured by this closure, which may escape, was
        // boxed and checked for exclusive access on every record (two runtime calls, about 120
        // instructions a record in `ingest-faa`).
        let batch = UnsafeMutablePointer<[CSVRecord]>.allocate(capacity: 1)
        batch.initialize(to: [])
        defer {
            batch.deinitialize(count: 1)
            batch.deallocate()
        }
        batch.pointee.reserveCapacity(batchSize)
        let collect: (CSVRecord) throws -> Void = { record in
            batch.pointee.append(record)
            if batch.pointee.count == batchSize {
                guard queue.put(batch.pointee) else { throw Cancelled() }
                batch.pointee.removeAll(keepingCapacity: true)
            }
        }
        do {
            let parser = try CSVParser(dialect: dialect, file: file)
            let produced = try produce { chunk in try parser.parse(chunk, collect) }
            try parser.finish(collect)
            if !batch.pointee.isEmpty { queue.put(batch.pointee) }
            return produced
        } catch let error as Cancelled {
            throw error
        } catch {
            if !batch.pointee.isEmpty { queue.put(batch.pointee) }
            throw error
        }
    }

    /// The consumer gave up: the producer stops quietly (the consumer's error is the one thrown).
    private struct Cancelled: Error {}
}
