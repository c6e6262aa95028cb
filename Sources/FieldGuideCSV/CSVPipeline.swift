import Foundation

/// Parses CSV on a second thread while the caller consumes records: reading and libcsv on
/// one core, the caller's per-record work on the other. Records arrive in file order, in
/// batches through a bounded queue, so memory stays flat in the file size.
///
/// ```swift
/// try CSVPipeline.run(dialect: .unquoted, file: "MASTER.txt", produce: { feed in
///     try stream(file) { chunk in try feed(chunk) }      // runs on the parsing thread
/// }) { record in
///     normalize(record)                                  // runs on the calling thread
/// }
/// ```
public enum CSVPipeline {
    /// Records per hand-over between the threads.
    static let batchSize = 2_048
    /// Batches in flight at most.
    static let depth = 4

    /// `produce` gets a `feed` function and calls it with the file's chunks, in order.
    /// Errors on either side stop both; the first one is rethrown here. A parsing error reaches
    /// the caller after every record that came before it.
    public static func run(dialect: CSVDialect, file: String,
                           produce: @escaping @Sendable (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
                           consume: (CSVRecord) throws -> Void) throws {
        let queue = BatchQueue(depth: depth)
        let worker = Thread {
            var batch: [CSVRecord] = []
            do {
                let parser = try CSVParser(dialect: dialect, file: file)
                batch.reserveCapacity(batchSize)
                let collect: (CSVRecord) throws -> Void = { record in
                    batch.append(record)
                    if batch.count == batchSize {
                        guard queue.put(batch) else { throw Cancelled() }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                try produce { chunk in try parser.parse(chunk, collect) }
                try parser.finish(collect)
                _ = queue.put(batch)
                queue.finish(nil)
            } catch is Cancelled {
                queue.finish(nil)
            } catch {
                // Every record before the error reaches the consumer, wherever the batches end.
                _ = queue.put(batch)
                queue.finish(error)
            }
        }
        worker.start()
        do {
            while let batch = queue.take() {
                for record in batch { try consume(record) }
            }
        } catch {
            queue.cancel()
            queue.waitUntilFinished()
            throw error
        }
        if let error = queue.failure { throw error }
    }

    private struct Cancelled: Error {}
}

/// A bounded FIFO of record batches between the parsing thread and the consumer.
private final class BatchQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[CSVRecord]] = []
    private var done = false
    private var cancelled = false
    private(set) var failure: Error?
    private let depth: Int

    init(depth: Int) { self.depth = depth }

    /// Blocks while full; false when the consumer gave up.
    func put(_ batch: [CSVRecord]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        if !batch.isEmpty { batches.append(batch) }
        condition.broadcast()
        return true
    }

    /// The next batch, or nil once the producer finished and the queue is drained.
    func take() -> [CSVRecord]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !done { condition.wait() }
        if batches.isEmpty { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    func finish(_ error: Error?) {
        condition.lock()
        failure = failure ?? error
        done = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilFinished() {
        condition.lock()
        while !done { condition.wait() }
        condition.unlock()
    }
}
