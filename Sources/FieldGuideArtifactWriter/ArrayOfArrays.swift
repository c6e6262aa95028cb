import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
extension Array {
    /// Calls `body` with the storage of every array in `self` at once, for loops that read
    /// several arrays of one kind (the parts of a table, several pools).
    ///
    /// ```swift
    /// [first, second].withUnsafeBufferPointers { buffers in buffers[1][0] }
    /// ```
    func withUnsafeBufferPointers<Item, Result>(_ body: ([UnsafeBufferPointer<Item>]) -> Result) -> Result
        where Element == [Item] {
        func open(_ rest: ArraySlice<[Item]>, _ opened: [UnsafeBufferPointer<Item>]) -> Result {
            guard let first = rest.first else { return body(opened) }
            return first.withUnsafeBufferPointer { open(rest.dropFirst(), opened + [$0]) }
        }
        return open(self[...], [])
    }
}
