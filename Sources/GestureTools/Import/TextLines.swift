/// Where each line of a file starts, for turning a byte offset into a line
/// number. A line ends at LF, CR or CR LF, as XML and Python's universal
/// newlines both read it.
struct TextLines {
    /// The offset of each line's first byte; line 1 starts at 0.
    private(set) var starts: [Int] = [0]
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x0A || byte == 0x0D {
                if byte == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
    }

    /// The 1-based line the byte at `offset` is on.
    func line(ofOffset offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The lines holding bytes that are not UTF-8, in order.
    static func linesWithInvalidUTF8(_ bytes: [UInt8]) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var start = 0
        var i = 0
        while i <= bytes.count {
            let atEnd = i == bytes.count
            if atEnd || bytes[i] == 0x0A || bytes[i] == 0x0D {
                if String(validating: bytes[start..<i], as: UTF8.self) == nil { lines.append(line) }
                if atEnd { break }
                if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                line += 1
                start = i + 1
            }
            i += 1
        }
        return lines
    }
}
