import Foundation

/// Work started on a thread of its own, whose result is collected once with `value()`.
///
/// For the batch stages' two-core overlap: one piece of work runs while the calling thread does
/// another, and the caller decides when to wait and in which order errors surface.
///
/// ```swift
/// let reference = BackgroundTask { try readReferenceFiles() }
/// try readRegistrations()               // meanwhile, on this thread
/// let loaded = try reference.value()    // waits; rethrows the task's error
/// ```
public final class BackgroundTask<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, any Error>?

    /// Starts `work` on a new thread at once.
    public init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            // Moved, not copied, into `result`: this thread keeps no reference (see `take()`).
            var outcome = Optional(Result { try work() })
            condition.lock()
            result = outcome.take()
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work to finish; returns its value or rethrows its error.
    public func value() throws -> Value {
        try wait().get()
    }

    /// Waits for the work to finish and hands its value over, keeping no reference to it (or
    /// rethrows its error); call it once, and no other method after it.
    ///
    /// A value with storage of its own (a table that `build()` changes in place, say) stays
    /// the only reference to that storage, so changing it does not copy it, as changing a
    /// value `value()` returned would while the task lives.
    public func take() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        let outcome = result!
        result = .failure(Taken())
        return try outcome.get()
    }

    /// What a task holds once `take()` handed its value over.
    private struct Taken: Error {}

    /// Waits for work that cannot fail and returns its value.
    public func finished() -> Value {
        switch wait() {
        case let .success(value): return value
        case let .failure(error): preconditionFailure("a background task that cannot fail threw \(error)")
        }
    }

    /// Waits for the work to finish and returns how it ended.
    public func wait() -> Result<Value, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}

/// Work split over threads: several calls at once, each on a thread of its own (the first on
/// the calling thread), whose results come back without a copy left behind.
///
/// For the batch stages' two-core splits. `update` hands every thread one value to change in
/// place: each value's storage stays its own, so changing it never copies it.
///
/// ```swift
/// let halves = Concurrently.run(2) { index in try read(half: index) }   // [Result<…>]
/// let counts = Concurrently.update(&parts) { index, part in part.link() }
/// ```
public enum Concurrently {
    /// Calls `body` with `0..<count`, all at once; returns how each call ended, in order, once
    /// all have.
    public static func run<Output: Sendable, Failure: Error>(
        _ count: Int, _ body: @escaping @Sendable (Int) throws(Failure) -> Output
    ) -> [Result<Output, Failure>] {
        let outcomes = (0..<count).map { _ in Box<Result<Output, Failure>>() }
        @Sendable func call(_ index: Int) {
            do throws(Failure) { outcomes[index].value = .success(try body(index)) } catch { outcomes[index].value = .failure(error) }
        }
        let others = (1..<max(count, 1)).map { index in BackgroundTask { call(index) } }
        if count > 0 { call(0) }
        for other in others { other.finished() }
        return outcomes.map { $0.value.take()! }
    }

    /// Calls `body` with every element of `values` and its index, all at once, to change the
    /// element in place; returns how each call ended, in order, once all have.
    public static func update<Value: Sendable, Output: Sendable, Failure: Error>(
        _ values: inout [Value], _ body: @escaping @Sendable (Int, inout Value) throws(Failure) -> Output
    ) -> [Result<Output, Failure>] {
        let slots = values.map { Box(value: $0) }
        values = []  // each value's storage is now referenced by its box alone
        let outcomes = run(slots.count) { index throws(Failure) in try body(index, &slots[index].value!) }
        values = slots.map { $0.value.take()! }
        return outcomes
    }

    /// A value used by one thread at a time, taken out once the threads are done.
    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
        init(value: Value? = nil) { self.value = value }
    }
}

/// A value handed to another thread under the caller's guarantee that the two never use it at
/// the same time (one hands it over and waits, for instance).
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(value: Value) { self.value = value }
}
