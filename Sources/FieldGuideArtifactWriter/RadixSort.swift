import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// A stable LSD radix sort on 64-bit keys, a byte per pass, skipping the passes in which every
/// key has the same byte (small keys cost only the passes their bytes need).
///
/// ```swift
/// var keys: [UInt64] = [3, 1, 2], rows: [UInt32] = [0, 1, 2]
/// RadixSort.sort(keys: &keys, values: &rows)    // keys [1, 2, 3], rows [1, 2, 0]
/// ```
public enum RadixSort {
    /// Sorts `keys`, moving `values[i]` with `keys[i]`.
    public static func sort(keys: inout [UInt64], values: inout [UInt32]) {
        sortCarrying(keys: &keys, values: &values)
    }

    /// Sorts `keys` alone (for keys that carry their value in their low bits).
    public static func sort(keys: inout [UInt64]) {
        var none: [Void] = Array(repeating: (), count: keys.count)
        sortCarrying(keys: &keys, values: &none)
    }

    private static func sortCarrying<Value>(keys: inout [UInt64], values: inout [Value]) {
        let n = keys.count
        guard n > 1 else { return }
        var counts = [Int](repeating: 0, count: 8 * 256)
        keys.withUnsafeBufferPointer { keys in
            counts.withUnsafeMutableBufferPointer { counts in
                for key in keys {
                    for pass in 0..<8 { counts[pass * 256 + Int((key >> (pass * 8)) & 0xFF)] += 1 }
                }
            }
        }
        var otherKeys = [UInt64](repeating: 0, count: n)
        var otherValues = values
        for pass in 0..<8 {
            let base = pass * 256
            if counts[base..<base + 256].contains(n) { continue }  // one byte value: nothing moves
            var next = [Int](repeating: 0, count: 256)
            var sum = 0
            for b in 0..<256 { next[b] = sum; sum += counts[base + b] }
            let shift = UInt64(pass * 8)
            keys.withUnsafeBufferPointer { keys in
                values.withUnsafeBufferPointer { values in
                    otherKeys.withUnsafeMutableBufferPointer { outKeys in
                        otherValues.withUnsafeMutableBufferPointer { outValues in
                            next.withUnsafeMutableBufferPointer { next in
                                for i in 0..<n {
                                    let key = keys[i]
                                    let b = Int((key >> shift) & 0xFF)
                                    let to = next[b]
                                    next[b] = to + 1
                                    outKeys[to] = key
                                    outValues[to] = values[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &otherKeys)
            swap(&values, &otherValues)
        }
    }
}
