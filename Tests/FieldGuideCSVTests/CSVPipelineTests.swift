import FieldGuideCSV
import FieldGuideWorkers
import Foundation
import Testing

/// The bounded queue between threads, and the CSV pipeline built on it: records in order,
/// the producer's value back, errors from either side stopping both.
@Suite("Work queue and CSV pipeline")
struct CSVPipelineTests {
    struct Failure: Error, Equatable {}

    /// `count` one-field lines, `0\n1\n…`, fed in chunks of `chunk` bytes.
    static func lines(_ count: Int, chunk: Int = 1_000, failingAfter failure: Int? = nil)
        -> @Sendable (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        { feed in
            let bytes = Array((0..<count).map { "\($0)\n" }.joined().utf8)
            var offset = 0
            while offset < bytes.count {
                if let failure, offset >= failure { throw Failure() }
                let end = min(offset + chunk, bytes.count)
                try bytes[offset..<end].withUnsafeBytes { try feed($0) }
                offset = end
            }
            return bytes.count
        }
    }

    @Test("a queue hands elements over in order between threads, then ends when closed")
    func queueOrder() throws {
        let queue = WorkQueue<Int>(capacity: 3)
        let producer = BackgroundTask {
            defer { queue.close() }
            return (0..<10_000).allSatisfy { queue.put($0) }
        }
        var taken: [Int] = []
        while let i = queue.take() { taken.append(i) }
        #expect(producer.finished())
        #expect(taken == Array(0..<10_000))
        #expect(queue.take() == nil)
    }

    @Test("cancelling a queue releases a producer waiting on a full queue, and a consumer on an empty one")
    func queueCancel() throws {
        let full = WorkQueue<Int>(capacity: 1)
        full.put(1)
        let producer = BackgroundTask { full.put(2) }
        let empty = WorkQueue<Int>(capacity: 1)
        let consumer = BackgroundTask { empty.take() }
        full.cancel()
        empty.cancel()
        #expect(producer.finished() == false)
        #expect(consumer.finished() == nil)
        #expect(full.take() == nil && full.isCancelled)
    }

    @Test("records reach the consumer in order across many batches; the producer's value comes back")
    func pipelineOrder() throws {
        var values: [Int] = []
        let size = try CSVPipeline.run(dialect: .unquoted, file: "n.csv", produce: Self.lines(30_000, chunk: 777)) { record in
            values.append(Int(record[0])!)
            #expect(record.line == values.count)
        }
        #expect(values == Array(0..<30_000))
        #expect(size == Array((0..<30_000).map { "\($0)\n" }.joined().utf8).count)
    }

    @Test("a producer error comes after every record before it")
    func producerError() throws {
        var count = 0
        #expect(throws: Failure()) {
            try CSVPipeline.run(dialect: .unquoted, file: "n.csv", produce: Self.lines(30_000, failingAfter: 50_000)) { _ in count += 1 }
        }
        // Every whole line of the first 50,000 bytes: 10 one-digit lines, 90 of two digits …
        #expect(count == 10 + 90 + 900 + 9_000 + (50_000 - 10 * 2 - 90 * 3 - 900 * 4 - 9_000 * 5) / 6)
    }

    @Test("a consumer error stops the producer and is the one thrown")
    func consumerError() throws {
        var count = 0
        #expect(throws: Failure()) {
            try CSVPipeline.run(dialect: .unquoted, file: "n.csv", produce: Self.lines(200_000)) { _ in
                count += 1
                if count == 5_000 { throw Failure() }
            }
        }
        #expect(count == 5_000)
    }
}
