/// Finds where a Lua source calls a global function by name, without running
/// it: `key("a")`, `key "a"`, `key{...}`. The engine makes the virtual
/// keyboard at start when the rules call `key()`, so a desktop has opened it
/// before the first gesture. Comments and strings are skipped as Lua's lexer
/// skips them, and a call inside the scope of a local of that name (`local
/// key`, a parameter, a loop variable) is the local's. A call made some other
/// way (`pcall(key, ...)`, `_ENV["key"]`) is not found: those keep the
/// keyboard made at first use.
public enum CallScanner {
    /// The line of the first direct call of global `name`, or nil.
    /// `member`: instead, the first use of a field of global table `name`
    /// (`pointer.move(...)`, `local press = pointer.press`).
    public static func firstCall(of name: String, in source: [UInt8], member: Bool = false) -> Int? {
        var lexer = LuaTokens(source)
        let target = Array(name.utf8)
        var previous = LuaTokens.Token.other
        var beforePrevious = LuaTokens.Token.other
        // Blocks: `function`, `do`, `if`, `repeat` open one; `end`, `until` close it.
        var depth = 0
        // The outermost block depth at which a local of that name is in scope.
        var shadowedFrom: Int?
        var inLocalList = false
        var inForList = false
        var inFunctionHeader = false
        var inParameters = false
        var candidate: Int?
        while let (token, line) = lexer.next() {
            if let line = candidate, member ? token == .dot : token.opensCallArguments { return line }
            candidate = nil
            if case .name(let text) = token, text == target {
                var scope: Int?
                if inLocalList {
                    scope = depth
                } else if previous == .keyword("function") && beforePrevious == .keyword("local") {
                    scope = depth - 1  // the block around the function `function` opened
                } else if inForList {
                    scope = depth + 1  // the loop's body
                } else if inParameters {
                    scope = depth  // the function's body, opened by `function`
                } else if !previous.selectsField, previous != .keyword("function"), depth < shadowedFrom ?? Int.max {
                    candidate = line
                }
                if let scope { shadowedFrom = min(shadowedFrom ?? scope, scope) }
            }
            switch token {
            case .keyword("local"): inLocalList = true
            case .keyword("for"): inForList = true
            case .name, .comma: break
            default:
                inLocalList = false
                inForList = false
            }
            switch token {
            case .keyword("function"):
                depth += 1
                inFunctionHeader = true
            case .keyword("do"), .keyword("if"), .keyword("repeat"):
                depth += 1
            case .keyword("end"), .keyword("until"):
                depth -= 1
                if let from = shadowedFrom, depth < from { shadowedFrom = nil }
            case .openParen where inFunctionHeader:
                inFunctionHeader = false
                inParameters = true
            case .closeParen:
                inParameters = false
            default:
                break
            }
            beforePrevious = previous
            previous = token
        }
        return nil
    }
}

/// Just enough of Lua 5.4's lexer to tell names from strings and comments.
struct LuaTokens {
    enum Token: Equatable {
        case name([UInt8])
        case keyword(String)
        case string
        case dot, colon, doubleColon, comma, equals
        case openParen, closeParen, openBrace
        case other

        /// `t.key`, `t:key`, `::key::`, `goto key`: not the global.
        var selectsField: Bool { self == .dot || self == .colon || self == .doubleColon || self == .keyword("goto") }
        /// `f(`, `f "s"`, `f [[s]]`, `f{`: a call.
        var opensCallArguments: Bool { self == .openParen || self == .string || self == .openBrace }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    mutating func next() -> (Token, Int)? {
        while let c = peek() {
            let start = line
            switch c {
            case 0x0A:
                line += 1
                index += 1
            case 0x0D:
                // \r\n and a lone \r are one line end each.
                line += 1
                index += peek(1) == 0x0A ? 2 : 1
            case 0x20, 0x09, 0x0B, 0x0C:
                index += 1
            case 0x2D where peek(1) == 0x2D:
                index += 2
                if let level = longBracketLevel() { skipLongBracket(level) } else { skipLine() }
            case 0x22, 0x27:
                skipQuoted(c)
                return (.string, start)
            case 0x5B:
                if let level = longBracketLevel() {
                    skipLongBracket(level)
                    return (.string, start)
                }
                index += 1
                return (.other, start)
            case _ where isNameStart(c):
                let from = index
                while let d = peek(), isNameStart(d) || isDigit(d) { index += 1 }
                let text = Array(bytes[from..<index])
                let word = String(decoding: text, as: UTF8.self)
                return (LuaTokens.keywords.contains(word) ? .keyword(word) : .name(text), start)
            case _ where isDigit(c):
                while let d = peek(), isNameStart(d) || isDigit(d) || d == 0x2E { index += 1 }
                return (.other, start)
            case 0x2E:
                // `.`, but not `..` or `...`, selects a field.
                var n = 0
                while peek(n) == 0x2E { n += 1 }
                index += n
                return (n == 1 ? .dot : .other, start)
            case 0x3A:
                if peek(1) == 0x3A { index += 2; return (.doubleColon, start) }
                index += 1
                return (.colon, start)
            case 0x3D:
                if peek(1) == 0x3D { index += 2; return (.other, start) }
                index += 1
                return (.equals, start)
            case 0x2C:
                index += 1
                return (.comma, start)
            case 0x28:
                index += 1
                return (.openParen, start)
            case 0x29:
                index += 1
                return (.closeParen, start)
            case 0x7B:
                index += 1
                return (.openBrace, start)
            default:
                index += 1
                return (.other, start)
            }
        }
        return nil
    }

    private func isNameStart(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F }
    private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// At `[`: the level of a long bracket `[==[` (consumed), or nil (nothing consumed).
    private mutating func longBracketLevel() -> Int? {
        guard peek() == 0x5B else { return nil }
        var n = 1
        while peek(n) == 0x3D { n += 1 }
        guard peek(n) == 0x5B else { return nil }
        index += n + 1
        return n - 1
    }

    private mutating func skipLongBracket(_ level: Int) {
        while let c = peek() {
            if c == 0x5D {
                var n = 1
                while peek(n) == 0x3D { n += 1 }
                if n - 1 == level, peek(n) == 0x5D {
                    index += n + 1
                    return
                }
                index += 1
            } else {
                countLineEnd(c)
            }
        }
    }

    private mutating func skipQuoted(_ quote: UInt8) {
        index += 1
        while let c = peek() {
            if c == quote { index += 1; return }
            if c == 0x0A || c == 0x0D { return }  // an unfinished string: Lua's own error, later
            if c == 0x5C {
                index += 1
                if let escaped = peek() { countLineEnd(escaped) }
                continue
            }
            index += 1
        }
    }

    private mutating func skipLine() {
        while let c = peek(), c != 0x0A, c != 0x0D { index += 1 }
    }

    /// Steps over one character, counting a line end.
    private mutating func countLineEnd(_ c: UInt8) {
        if c == 0x0A {
            line += 1
            index += 1
        } else if c == 0x0D {
            line += 1
            index += peek(1) == 0x0A ? 2 : 1
        } else {
            index += 1
        }
    }
}
