import Foundation

/// Decides which stage runs when: a stage starts once every stage it reads from ran, was
/// skipped or was dropped, at most `jobs` at once, in plan order; after a failure or a cancellation no new
/// stage starts and the running ones are waited for.
///
/// The stages run as child tasks of one task group; each stage's blocking work (hashing, a
/// child process) runs on a thread of its own, so the cooperative pool never waits on it.
///
/// ```swift
/// let scheduler = StageScheduler(stages: planned, order: plan.order, jobs: 2, cancellation: cancellation)
/// let results = scheduler.run(executor.execute) { print("\($0.name) \($0.status)") }
/// results.map(\.status)   // in plan order: ran, skipped, failed, not-run, cancelled
/// ```
struct StageScheduler: Sendable {
    /// Every stage, by index (definition order).
    let stages: [PlannedStage]
    /// Stage indexes in run order.
    let order: [Int]
    let jobs: Int
    let cancellation: Cancellation

    /// Runs the stages and returns their results in plan order (stages never started are
    /// `not-run`, or `cancelled` when the run was); `finished` hears of each as it ends.
    func run(_ execute: @escaping @Sendable (PlannedStage) -> RunSummary.Stage,
             finished: @escaping @Sendable (RunSummary.Stage) -> Void) -> [RunSummary.Stage] {
        let results = ResultSlot<[Int: RunSummary.Stage]>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            results.value = await schedule(execute, finished: finished)
            done.signal()
        }
        done.wait()
        let ended = results.value ?? [:]
        let cancelled = cancellation.isCancelled
        return order.map { index in
            if let result = ended[index] { return result }
            let stage = stages[index]
            return RunSummary.Stage(name: stage.name, tool: stage.tool, status: cancelled ? .cancelled : .notRun, seconds: 0,
                                    exitCode: nil, fingerprint: nil, inputBytes: 0, counts: [:], rows: nil, error: nil)
        }
    }

    /// Starts every ready stage the job limit allows, then waits for one to end, until none runs.
    private func schedule(_ execute: @escaping @Sendable (PlannedStage) -> RunSummary.Stage,
                          finished: @escaping @Sendable (RunSummary.Stage) -> Void) async -> [Int: RunSummary.Stage] {
        await withTaskGroup(of: (Int, RunSummary.Stage).self) { group in
            var ended: [Int: RunSummary.Stage] = [:]
            var started = Set<Int>()
            var stop = false
            while true {
                if !stop && !cancellation.isCancelled {
                    for index in order where started.count - ended.count < jobs && !started.contains(index) && isReady(index, ended) {
                        started.insert(index)
                        let stage = stages[index]
                        group.addTask { (index, await Self.onThread { execute(stage) }) }
                    }
                }
                guard let (index, result) = await group.next() else { break }
                ended[index] = result
                finished(result)
                if result.status == .failed || result.status == .cancelled { stop = true }
            }
            return ended
        }
    }

    /// Whether every stage `index` reads from ran or was skipped.
    private func isReady(_ index: Int, _ ended: [Int: RunSummary.Stage]) -> Bool {
        stages[index].dependencies.allSatisfy { ended[$0].map { [.ran, .skipped, .dropped].contains($0.status) } ?? false }
    }

    /// Runs blocking work on a thread of its own and waits for its value without holding a
    /// thread of the cooperative pool.
    private static func onThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}

/// The run's stop switch: once thrown, no stage starts and every running stage process gets
/// SIGTERM (`pipeline` throws it on SIGINT or SIGTERM).
///
/// ```swift
/// guard cancellation.register(child) else { throw PipelineError(.cancelled, "not started") }
/// defer { cancellation.unregister(child) }
/// ```
final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var running: [ObjectIdentifier: StageProcess] = [:]

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Stops the run: no stage starts from now on, running stage processes get SIGTERM.
    func cancel() {
        lock.lock()
        cancelled = true
        let processes = Array(running.values)
        lock.unlock()
        processes.forEach { $0.terminate() }
    }

    /// Keeps `process` to be terminated on cancellation; false when the run is cancelled already.
    func register(_ process: StageProcess) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !cancelled else { return false }
        running[ObjectIdentifier(process)] = process
        return true
    }

    func unregister(_ process: StageProcess) {
        lock.lock()
        running[ObjectIdentifier(process)] = nil
        lock.unlock()
    }
}

/// A value set by one task and read by the thread that waited for it.
private final class ResultSlot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
