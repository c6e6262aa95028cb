import Foundation

/// A bounded first-in, first-out queue between threads: producers block while it is full,
/// consumers while it is empty, so memory stays flat however far one side runs ahead.
///
/// The batch stages' hand-over between a producer and a consumer thread (the model is
/// Planetiler's worker pipeline): the producer `put`s, then `close`s; the consumer `take`s
/// until nil. Either side can give up with `cancel()`: queued elements are dropped, `put`
/// returns false and `take` nil from then on, so the other side stops instead of waiting.
///
/// ```swift
/// let queue = WorkQueue<[CSVRecord]>(capacity: 4)
/// let producer = BackgroundTask {
///     defer { queue.close() }
///     for batch in batches { guard queue.put(batch) else { return } }
/// }
/// while let batch = queue.take() { consume(batch) }
/// try producer.value()
/// ```
public final class WorkQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// A ring of `capacity` slots: `count` elements from `head` on.
    private var slots: [Element?]
    private var head = 0, count = 0
    private var closed = false
    private var cancelled = false

    /// A queue that holds at most `capacity` elements (at least one).
    public init(capacity: Int) {
        slots = Array(repeating: nil, count: max(capacity, 1))
    }

    /// Appends `element`, waiting while the queue is full; false (and the element dropped)
    /// once the queue is cancelled. Putting into a closed queue is a programming error.
    @discardableResult
    public func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == slots.count && !cancelled { condition.wait() }
        if cancelled { return false }
        precondition(!closed, "put into a closed WorkQueue")
        slots[(head + count) % slots.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// The oldest element, waiting while the queue is empty and open; nil once it is closed
    /// and drained, or cancelled.
    public func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed && !cancelled { condition.wait() }
        if cancelled || count == 0 { return nil }
        let element = slots[head].take()
        head = (head + 1) % slots.count
        count -= 1
        condition.broadcast()
        return element
    }

    /// No more elements will come: consumers drain what is queued, then get nil.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Gives up on both sides: queued elements are dropped, waiting producers and consumers
    /// return at once.
    public func cancel() {
        condition.lock()
        cancelled = true
        for index in slots.indices { slots[index] = nil }
        count = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }
}
