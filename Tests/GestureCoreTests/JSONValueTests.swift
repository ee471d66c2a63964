import GestureCore
import Testing

/// The one JSON reader: expectations files, shapes files, and desktops' answers.
@Suite("JSON values")
struct JSONValueTests {
    static func failure(_ text: String) -> JSONParseError? {
        do {
            _ = try JSONValue.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("objects, arrays, escapes and numbers are read")
    func reads() throws {
        let v = try JSONValue.parse(#"{"a":[1,-2.5e3,true,false,null],"s":"x\"\u00e9\ud83d\ude00\n","pid":42}"#)
        #expect(v == .object([
            "a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]),
            "s": .string("x\"é😀\n"),
            "pid": .number(42),
        ]))
        #expect(v["pid"]?.integer == 42)
        #expect(v["s"]?.string == "x\"é😀\n")
        #expect(v["a"]?.array?.count == 5)
        #expect(JSONValue.number(1e300).integer == nil)
        #expect(JSONValue.number(2.5).integer == nil)
    }

    @Test("a lone surrogate, as in a window title cut mid-character, reads as U+FFFD")
    func loneSurrogate() throws {
        #expect(try JSONValue.parse(#""a\ud800b""#) == .string("a\u{FFFD}b"))
        #expect(try JSONValue.parse(#""\udc00""#) == .string("\u{FFFD}"))
        #expect(try JSONValue.parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    }

    @Test("malformed text says what and where", arguments: [
        ("{\"a\":1", "',' or '}' was expected at column 7"),
        ("{\"a\":1} x", "text after the JSON value at column 9"),
        ("{\"a\":1,\"a\":2}", "the key \"a\" appears twice at column 8"),
        ("[01]", "',' or ']' was expected at column 3"),
        ("1e999", "the number 1e999 is out of range at column 1"),
        ("", "a value was expected, the line ended at column 1"),
        ("\"\\x\"", "an unknown escape \\x at column 3"),
    ])
    func errors(text: String, message: String) {
        #expect(Self.failure(text)?.description == message)
    }

    @Test("hostile text is an error, never a crash", arguments: ["", "{", "[1,", "{\"a\" 1}", "\"abc", "nul", "[1] x", "-", "1.", "1e", "\"\\u12\"", String(repeating: "[", count: 500)])
    func hostile(text: String) {
        #expect(Self.failure(text) != nil)
    }

    @Test("nesting deeper than the limit is refused, not recursed into")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.failure(deep)?.message == "nested more than \(JSONValue.maxDepth) deep")
        #expect(Self.failure(String(repeating: "[", count: 200) + String(repeating: "]", count: 200)) == nil)
    }

    @Test("text: compact, keys in order, strings quoted as the writer quotes them")
    func text() throws {
        let v = try JSONValue.parse(#"{"b":[1,2.5,"x\n"],"a":null}"#)
        #expect(v.text == #"{"a":null,"b":[1,2.5,"x\n"]}"#)
        #expect(JSONValue.quote("tab\there \"q\"") == #""tab\there \"q\"""#)
    }
}
