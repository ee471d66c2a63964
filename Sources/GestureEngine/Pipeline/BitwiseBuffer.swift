/// A growable run of plain values in storage of its own, written and read
/// through pointers: an array's append checks its uniqueness and capacity on
/// every element, which on a chunk's path was every touch of every frame.
/// Only for values with nothing to release (`BitwiseCopyable`), so the
/// storage is never deinitialized, only freed.
struct BitwiseBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the buffer is not used after.
    func free() {
        base.deallocate()
    }

    subscript(index: Int) -> Element {
        get { base[index] }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        if count + elements.count > capacity { grow(toHold: count + elements.count) }
        for i in 0..<elements.count { (base + count + i).initialize(to: elements[i]) }
        count += elements.count
    }

    /// Empty again; the storage is kept.
    mutating func removeAll() {
        count = 0
    }

    /// Bytes the elements take.
    var bytes: Int { count * MemoryLayout<Element>.stride }

    private mutating func grow(toHold needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        storage.moveInitialize(from: base, count: count)
        base.deallocate()
        base = storage
        capacity = larger
    }
}
