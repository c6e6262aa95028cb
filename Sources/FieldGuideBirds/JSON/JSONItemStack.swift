/// The stack `JSONParser` gathers a container's members or elements on, each container's
/// handed over as an array of exactly their count.
///
/// Why: appended to an array of their own, a container's items made it grow (1, 2, 4, 8 …):
/// two or three allocations, copies and frees for most objects of a seed file, a quarter of
/// its parse (callgrind, `birds-bench`: 228 M instructions of 849 M). On the stack, a nested
/// container's items go above its parent's and leave before the parent's next item comes, so
/// each container's are side by side when it closes, and are moved (not copied) out.
///
/// ```swift
/// let stack = JSONItemStack<Int>()
/// let start = stack.count
/// stack.push(1); stack.push(2)
/// stack.pop(from: start)   // [1, 2]; the stack is back at `start`
/// ```
final class JSONItemStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// Items on the stack.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        // Items of containers a parse error left open.
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The items from `start` on (a count the stack had), moved into an array; the stack drops
    /// back to `start`.
    func pop(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "pop(from:) takes a count the stack had")
        let taken = count - start
        guard taken > 0 else { return [] }
        // Moved one by one into a reserved array, not with `Array(unsafeUninitializedCapacity:)`:
        // that went through the standard library's unspecialized allocation, 740 instructions
        // a container.
        var items: [Element] = []
        items.reserveCapacity(taken)
        for index in start..<count { items.append((base + index).move()) }
        count = start
        return items
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (larger, capacity * 2)
    }
}
