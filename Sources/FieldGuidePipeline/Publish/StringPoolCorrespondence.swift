import FieldGuideArtifact

/// Which string of one pool is which string of another: two builds' pools are both sorted, so
/// one merge over them maps each old id to the new id of the same bytes. Comparing a string
/// column of two builds is then an integer compare instead of reading both strings.
///
/// ```swift
/// let same = StringPoolCorrespondence(old: old.strings, new: new.strings)
/// same.equal(oldID, newID)    // the two ids hold the same bytes
/// ```
struct StringPoolCorrespondence {
    private let old: StringPool
    private let new: StringPool
    /// The new id of each old id's bytes, `UInt32.max` when the new pool lacks them; empty when
    /// the pools are identical (every id maps to itself).
    private let newIDs: [UInt32]

    init(old: StringPool, new: StringPool) {
        self.old = old
        self.new = new
        var map = [UInt32](repeating: .max, count: old.count)
        var i = 0, j = 0, identical = old.count == new.count
        while i < old.count, j < new.count {
            let order = compare(old.bytes(UInt32(i)), new.bytes(UInt32(j)))
            if order == 0 {
                map[i] = UInt32(j)
                identical = identical && i == j
                i += 1
                j += 1
            } else if order < 0 {
                identical = false
                i += 1
            } else {
                identical = false
                j += 1
            }
        }
        newIDs = identical ? [] : map
    }

    /// Whether old string `x` and new string `y` hold the same bytes.
    ///
    /// The map answers for ids it knows; anything else (an id a crafted file put past its pool,
    /// or pools that are not sorted) is settled by comparing the bytes, so the answer never
    /// depends on the map being right.
    @inline(__always)
    func equal(_ x: UInt32, _ y: UInt32) -> Bool {
        if newIDs.isEmpty {
            if x == y { return true }
        } else if Int(x) < newIDs.count, newIDs[Int(x)] == y {
            return true
        }
        return compare(old.bytes(x), new.bytes(y)) == 0
    }
}
