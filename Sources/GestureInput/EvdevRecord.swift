/// `struct input_event` as 64-bit Linux lays it out: seconds and microseconds
/// (8 bytes each), type, code, value. Raw input, a live device's reads and a
/// clone's writes all use it.
extension EvdevEvent {
    /// The record at `offset` of `bytes` (which holds a whole one there).
    @inline(__always)
    public init(record bytes: UnsafeRawBufferPointer, at offset: Int) {
        let seconds = bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        let micros = bytes.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)
        self.init(time: Double(seconds) + Double(micros) / 1e6,
                  type: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self),
                  code: bytes.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self),
                  value: bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self))
    }

    /// Every whole record of `bytes`, in order.
    public static func records(_ bytes: UnsafeRawBufferPointer) -> [EvdevEvent] {
        let size = RawEventDecoder.recordSize
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { EvdevEvent(record: bytes, at: $0) }
    }

    /// Appends the record with its own time, as a device's read gives it.
    public func appendStampedRecord(to bytes: inout [UInt8]) {
        let seconds = time.rounded(.down)
        let micros = ((time - seconds) * 1e6).rounded()
        withUnsafeBytes(of: Int64(exactly: seconds)?.littleEndian ?? 0) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(exactly: micros)?.littleEndian ?? 0) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: type.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: code.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends the record, its time left 0 (the kernel stamps what uinput is written).
    public func appendRecord(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: repeatElement(0, count: 16))
        withUnsafeBytes(of: type.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: code.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
