/// A JSON value read from text: lines compared by meaning (`gesturemap test`),
/// shapes files, and what desktops answer (sway, Hyprland, D-Bus). Not on any
/// hot path: the replay reads its events with the byte scanner in GestureInput.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Deeper than this is refused rather than recursed into: an expectations
    /// file is input like any other.
    public static let maxDepth = 256

    public typealias ParseError = JSONParseError

    /// Reads one JSON text; a message with the column where it went wrong if it is not one.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var reader = JSONTextReader(Array(text.utf8))
        return try reader.document()
    }

    public var object: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    public subscript(key: String) -> JSONValue? { object?[key] }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// A whole number that fits an Int, such as a pid; nil for anything else.
    public var integer: Int? {
        guard let n = number, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
        return Int(exactly: n)
    }
}

public struct JSONParseError: Error, Equatable, Sendable {
    public var message: String
    public var column: Int

    public var description: String { "\(message) at column \(column)" }
}

/// Recursive descent over UTF-8 bytes, with a depth limit.
private struct JSONTextReader {
    let bytes: [UInt8]
    var pos = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard pos == bytes.count else { throw failure("text after the JSON value") }
        return value
    }

    private func failure(_ message: String) -> JSONParseError {
        JSONParseError(message: message, column: pos + 1)
    }

    private var current: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { pos += 1 }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maxDepth else { throw failure("nested more than \(JSONValue.maxDepth) deep") }
        guard let b = current else { throw failure("a value was expected, the line ended") }
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("a value was expected")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - pos >= expected.count, bytes[pos..<(pos + expected.count)].elementsEqual(expected) else {
            throw failure("a value was expected")
        }
        pos += expected.count
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        pos += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { pos += 1; return .object(fields) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("a quoted key was expected") }
            let keyStart = pos
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("':' was expected after a key") }
            pos += 1
            skipWhitespace()
            guard fields[key] == nil else {
                pos = keyStart
                throw failure("the key \"\(key)\" appears twice")
            }
            fields[key] = try value(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): pos += 1
            case UInt8(ascii: "}"): pos += 1; return .object(fields)
            default: throw failure("',' or '}' was expected")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        pos += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { pos += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): pos += 1
            case UInt8(ascii: "]"): pos += 1; return .array(items)
            default: throw failure("',' or ']' was expected")
            }
        }
    }

    private mutating func number() throws(JSONParseError) -> Double {
        let start = pos
        if current == UInt8(ascii: "-") { pos += 1 }
        guard let first = current, isDigit(first) else { throw failure("a digit was expected") }
        if first == UInt8(ascii: "0") {
            pos += 1
        } else {
            while let b = current, isDigit(b) { pos += 1 }
        }
        if current == UInt8(ascii: ".") {
            pos += 1
            guard let b = current, isDigit(b) else { throw failure("a digit was expected after '.'") }
            while let b = current, isDigit(b) { pos += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            pos += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { pos += 1 }
            guard let b = current, isDigit(b) else { throw failure("a digit was expected in the exponent") }
            while let b = current, isDigit(b) { pos += 1 }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            pos = start
            throw failure("the number \(text) is out of range")
        }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func string() throws(JSONParseError) -> String {
        pos += 1
        var out: [UInt8] = []
        while true {
            guard let b = current else { throw failure("the string is not closed") }
            switch b {
            case UInt8(ascii: "\""):
                pos += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw failure("the string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                pos += 1
                try escape(into: &out)
            case 0..<0x20:
                throw failure("a control character must be escaped in a string")
            default:
                out.append(b)
                pos += 1
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(JSONParseError) {
        guard let b = current else { throw failure("the string is not closed") }
        pos += 1
        switch b {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar), current == UInt8(ascii: "\\"), pos + 1 < bytes.count,
               bytes[pos + 1] == UInt8(ascii: "u") {
                let mark = pos
                pos += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    pos = mark
                }
            }
            // A lone surrogate (window titles cut mid-character do this) reads as U+FFFD.
            let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            pos -= 1
            throw failure("an unknown escape \\\(Character(Unicode.Scalar(b)))")
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - pos >= 4 else { throw failure("\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[pos]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw failure("\\u needs four hex digits")
            }
            v = v << 4 | digit
            pos += 1
        }
        return v
    }
}

extension JSONValue {
    /// Compact JSON text, members in key order (for `gesturemap apps --json`).
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            if let i = integer { return String(i) }
            return n.isFinite ? String(n) : "null"
        case .string(let s): return JSONValue.quote(s)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONValue.quote($0) + ":" + (members[$0]?.text ?? "null") }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal, written as JSONWriter writes strings.
    public static func quote(_ s: String) -> String {
        var w = JSONWriter()
        w.string(s)
        return w.text
    }
}
