import Foundation

/// Work started on a thread of its own, whose result is collected once with `value()`.
///
/// For the batch stages' two-core overlap: one piece of work runs while the calling thread does
/// another, and the caller decides when to wait and in which order errors surface.
///
/// ```swift
/// let models = BackgroundTask { try NormalizedFAA.readModels(path) }
/// try readRegistrations()            // meanwhile, on this thread
/// let loaded = try models.value()    // waits; rethrows the task's error
/// ```
public final class BackgroundTask<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, any Error>?

    /// Starts `work` on a new thread at once.
    public init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            condition.lock()
            result = outcome
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

/// A value handed to another thread under the caller's guarantee that the two never use it at
/// the same time (one hands it over and waits, for instance).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
