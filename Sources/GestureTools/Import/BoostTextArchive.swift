/// The tokens of a Boost.Serialization text archive (`boost::archive::text_iarchive`)
/// as its reader takes them: numbers as `std::istream >>` reads them (white space
/// skipped first), a string as its length, one separator, then that many bytes.
/// Every failure names the line it stopped at.
struct BoostTextArchive {
    struct Failure: Error, Equatable {
        var line: Int
        var message: String
    }

    private let bytes: [UInt8]
    private(set) var position: Int = 0
    /// The archive's library version (Boost's, from its header): collections
    /// carry an item version only after version 3.
    private(set) var libraryVersion = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The line the reader is at, counted from 1: the newlines passed so far.
    private(set) var line = 1

    func failure(_ message: String) -> Failure {
        Failure(line: line, message: message)
    }

    /// `22 serialization::archive N`: the signature and the library version.
    mutating func readHeader() throws(Failure) {
        let signature = try string("the archive's signature")
        guard signature == Array("serialization::archive".utf8) else {
            throw failure("this is no Boost text archive: it starts with something other than \"22 serialization::archive\"")
        }
        let version = try integer("the archive's library version")
        guard version >= 1 else { throw failure("the archive's library version is \(version); Boost's start at 1") }
        libraryVersion = version
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    private mutating func skipSpace() {
        while position < bytes.count, Self.isSpace(bytes[position]) {
            if bytes[position] == 0x0A { line += 1 }
            position += 1
        }
    }

    /// The next word, for a message.
    private func word() -> String {
        var end = position
        while end < bytes.count, !Self.isSpace(bytes[end]), end - position < 24 { end += 1 }
        return LuaText.printable(String(decoding: bytes[position..<end], as: UTF8.self), limit: 24)
    }

    private func missing(_ what: String) -> Failure {
        position >= bytes.count
            ? failure("the archive ends where \(what) belongs: it is cut short")
            : failure("\(what) is a number, not \"\(word())\"")
    }

    /// A whole number that fits in 64 bits, signed.
    mutating func integer(_ what: String) throws(Failure) -> Int {
        skipSpace()
        let start = position
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        var value = 0
        var digits = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(bytes[position] - 0x30))
            guard !o1, !o2 else {
                position = start
                throw failure("\(what) is too large a number")
            }
            value = sum
            digits += 1
            position += 1
        }
        guard digits > 0 else {
            position = start
            throw missing(what)
        }
        return negative ? -value : value
    }

    /// A count of items or bytes: 0 or more.
    mutating func count(_ what: String) throws(Failure) -> Int {
        let n = try integer(what)
        guard n >= 0 else { throw failure("\(what) is \(n), and a count is never negative") }
        return n
    }

    /// A bool as Boost writes it, 0 or 1.
    mutating func bool(_ what: String) throws(Failure) -> Bool {
        let n = try integer(what)
        guard n == 0 || n == 1 else { throw failure("\(what) is \(n), where 0 or 1 belongs") }
        return n == 1
    }

    /// A double as `>>` reads it: a decimal number, never nan or inf (the reader
    /// refuses both, and a number too large for a double).
    mutating func double(_ what: String) throws(Failure) -> Double {
        skipSpace()
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
            return position - from
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") { position += 1 }
        var mantissa = digits()
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            mantissa += digits()
        }
        guard mantissa > 0 else {
            position = start
            throw missing(what)
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            let e = position
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") { position += 1 }
            if digits() == 0 { position = e }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            position = start
            throw failure("\(what) is \(LuaText.printable(text, limit: 40)), which is no finite number")
        }
        return value
    }

    /// A string: its length, one separator, then exactly that many bytes.
    mutating func string(_ what: String) throws(Failure) -> [UInt8] {
        let length = try count("the length of \(what)")
        // The one character after the length is skipped, whatever it is.
        guard position < bytes.count, length <= bytes.count - position - 1 else {
            throw failure("\(what) is \(length) bytes long, more than the rest of the archive: it is cut short or damaged")
        }
        if bytes[position] == 0x0A { line += 1 }
        position += 1
        let text = Array(bytes[position..<(position + length)])
        line += text.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        position += length
        return text
    }
}
