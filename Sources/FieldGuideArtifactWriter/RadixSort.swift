import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

public enum RadixSort {
    public static func sort(keys: inout [UInt64], values: inout [UInt32]) {
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
        var otherValues = [UInt32](repeating: 0, count: n)
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
