import Foundation

/// A monotonic nanosecond timer: `clock_gettime(CLOCK_MONOTONIC)`, which on Linux reads the
/// vDSO clock without a system call, so reading it costs a few tens of nanoseconds.
public enum Timer {
    /// Nanoseconds since an arbitrary start.
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Nanoseconds of CPU time this thread has used: unlike `now()`, blind to the time the
    /// thread waits while other processes run (a shared machine's noise).
    @inline(__always)
    public static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The clock's resolution in nanoseconds.
    public static var resolution: Int {
        var ts = timespec()
        clock_getres(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }

    /// What two back-to-back readings measure with nothing between them: the median over many
    /// pairs, subtracted from every timed call.
    public static func overhead() -> Double {
        var samples: [Double] = []
        samples.reserveCapacity(20_000)
        for _ in 0..<20_000 {
            let start = now()
            let end = now()
            samples.append(Double(end &- start))
        }
        return Summary(samples).median
    }
}

/// Median, 99th percentile and mean of a set of per-operation times in nanoseconds.
public struct Summary {
    public let median: Double
    public let p99: Double
    public let mean: Double

    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        median = Self.percentile(sorted, 0.50)
        p99 = Self.percentile(sorted, 0.99)
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The nearest-rank percentile `q` (0…1) of sorted samples.
    private static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        let rank = Int((Double(sorted.count) * q).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Times an operation over a list of inputs, one call (or one batch of calls) at a time.
public struct LatencyProbe {
    /// Calls per timed batch: 1 times each call on its own.
    public let batch: Int
    /// Subtracted from each batch: the cost of reading the clock twice.
    public let timerOverhead: Double
    /// Calls made, untimed, before timing starts (caches, branch predictors, page faults).
    public let warmUp: Int

    public init(batch: Int, timerOverhead: Double, warmUp: Int) {
        self.batch = batch
        self.timerOverhead = timerOverhead
        self.warmUp = warmUp
    }

    /// The per-call time of `operation` over `inputs`, and how many calls found something.
    ///
    /// `operation` returns a small number derived from its result (1 for "found", a count …),
    /// which is summed and returned so the optimizer cannot drop the call.
    public func measure<Input>(_ inputs: [Input], _ operation: (Input) -> Int) -> (summary: Summary, total: Int) {
        let (samples, total) = self.samples(inputs[...], operation)
        return (Summary(samples), total)
    }

    /// `measure(_:_:)`'s per-call times themselves, over a slice of the inputs (after the
    /// warm-up calls): for pooling rounds that alternate with another measurement.
    public func samples<Input>(_ inputs: ArraySlice<Input>, _ operation: (Input) -> Int) -> (samples: [Double], total: Int) {
        var total = 0
        for input in inputs.prefix(warmUp) { total &+= operation(input) }
        total = 0
        var samples: [Double] = []
        samples.reserveCapacity(inputs.count / batch + 1)
        var start = inputs.startIndex
        while start < inputs.endIndex {
            let end = min(start + batch, inputs.endIndex)
            let began = Timer.now()
            for i in start..<end { total &+= operation(inputs[i]) }
            let elapsed = Double(Timer.now() &- began)
            samples.append(max(0, elapsed - timerOverhead) / Double(end - start))
            start = end
        }
        return (samples, total)
    }
}

/// `412 ns`, `1.37 µs`, `0.84 ms`, `2.10 s`.
public func duration(nanoseconds ns: Double) -> String {
    switch ns {
    case ..<1_000: return String(format: "%.0f ns", ns)
    case ..<1_000_000: return String(format: "%.2f µs", ns / 1e3)
    case ..<1_000_000_000: return String(format: "%.2f ms", ns / 1e6)
    default: return String(format: "%.2f s", ns / 1e9)
    }
}
