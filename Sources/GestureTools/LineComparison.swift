import GestureEngine
import GestureCore

/// One line of expected or actual output, read as JSON where it is JSON.
public struct OutputLine: Sendable {
    public var text: String
    public var value: JSONValue?

    public init(_ text: String) {
        self.text = text
        value = try? JSONValue.parse(text)
    }

    /// `gesturemap test`'s notion of the same line: JSON objects with the same
    /// fields, key order ignored, the top-level `t` within a millisecond (so a
    /// recording re-encoded or a threshold nudged by a rounding does not fail a
    /// test). Lines that are not JSON compare as text.
    public func matches(_ other: OutputLine) -> Bool {
        guard let a = value?.object, let b = other.value?.object else {
            return value == nil && other.value == nil ? text == other.text : value != nil && value == other.value
        }
        guard a.count == b.count else { return false }
        for (key, va) in a {
            guard let vb = b[key], OutputLine.field(key, va, matches: vb) else { return false }
        }
        return true
    }

    private static func field(_ key: String, _ a: JSONValue, matches b: JSONValue) -> Bool {
        if key == "t", case .number(let ta) = a, case .number(let tb) = b { return abs(ta - tb) <= timeTolerance }
        return a == b
    }

    /// One millisecond, with room for the last digit of a printed time.
    public static let timeTolerance = 0.001 + 1e-9

    /// For a pair of lines that differ: the fields that do, as `t: 0.4 → 0.5`.
    public func differences(to actual: OutputLine) -> [String] {
        guard let a = value?.object, let b = actual.value?.object else { return [] }
        var notes: [String] = []
        for key in Set(a.keys).union(b.keys).sorted() {
            switch (a[key], b[key]) {
            case (let x?, let y?) where !OutputLine.field(key, x, matches: y):
                notes.append("\(key): \(fieldText(x)) → \(fieldText(y))")
            case (let x?, nil): notes.append("\(key): \(fieldText(x)) → missing")
            case (nil, let y?): notes.append("\(key): missing → \(fieldText(y))")
            default: break
            }
        }
        return notes
    }
}

/// A JSON value written back compactly, keys sorted, for messages.
func fieldText(_ value: JSONValue) -> String {
    var json = JSONWriter()
    write(value, into: &json)
    return json.text
}

private func write(_ value: JSONValue, into json: inout JSONWriter) {
    switch value {
    case .null: json.raw("null")
    case .bool(let b): if b { json.raw("true") } else { json.raw("false") }
    case .number(let n):
        if n == n.rounded(), abs(n) < 1e15 { json.integer(Int64(n)) } else { json.number(n) }  // ok: |n| < 1e15 fits
    case .string(let s): json.string(s)
    case .array(let items):
        json.byte(0x5B)
        for (i, item) in items.enumerated() {
            if i > 0 { json.byte(0x2C) }
            write(item, into: &json)
        }
        json.byte(0x5D)
    case .object(let fields):
        json.byte(0x7B)
        for (i, key) in fields.keys.sorted().enumerated() {
            if i > 0 { json.byte(0x2C) }
            json.string(key)
            json.byte(0x3A)
            if let v = fields[key] { write(v, into: &json) }
        }
        json.byte(0x7D)
    }
}

/// A line diff of expected against actual output, matched with `OutputLine.matches`.
public enum LineDiff {
    public enum Entry: Equatable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The longest common subsequence, after the common ends are set aside;
    /// a middle too large to compare pairwise is shown as replaced whole.
    public static func entries(expected: [OutputLine], actual: [OutputLine]) -> [Entry] {
        var head = 0
        while head < expected.count, head < actual.count, expected[head].matches(actual[head]) { head += 1 }
        var tail = 0
        while tail < expected.count - head, tail < actual.count - head,
              expected[expected.count - 1 - tail].matches(actual[actual.count - 1 - tail]) { tail += 1 }
        let e = Array(expected[head..<(expected.count - tail)])
        let a = Array(actual[head..<(actual.count - tail)])
        var result = expected[..<head].map { Entry.same($0.text) }
        if e.count * a.count > 4_000_000 {
            result += e.map { .removed($0.text) } + a.map { .added($0.text) }
        } else {
            result += middle(e, a)
        }
        result += expected[(expected.count - tail)...].map { .same($0.text) }
        return result
    }

    private static func middle(_ e: [OutputLine], _ a: [OutputLine]) -> [Entry] {
        let n = e.count, m = a.count
        guard n > 0, m > 0 else { return e.map { .removed($0.text) } + a.map { .added($0.text) } }
        // lengths[i][j]: common length of e[i...] and a[j...], in one flat array.
        var lengths = [Int](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] = e[i].matches(a[j])
                    ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var out: [Entry] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, e[i].matches(a[j]) {
                out.append(.same(e[i].text)); i += 1; j += 1
            } else if j < m, i == n || lengths[i * (m + 1) + j + 1] >= lengths[(i + 1) * (m + 1) + j] {
                out.append(.added(a[j].text)); j += 1
            } else {
                out.append(.removed(e[i].text)); i += 1
            }
        }
        // Removals before additions within a run of changes, as people read diffs.
        var k = 0
        while k < out.count {
            if isSame(out[k]) { k += 1; continue }
            var end = k
            while end < out.count, !isSame(out[end]) { end += 1 }
            let run = out[k..<end]
            out.replaceSubrange(k..<end, with: run.filter(isRemoved) + run.filter { !isRemoved($0) })
            k = end
        }
        return out
    }

    private static func isSame(_ entry: Entry) -> Bool {
        if case .same = entry { return true }
        return false
    }

    private static func isRemoved(_ entry: Entry) -> Bool {
        if case .removed = entry { return true }
        return false
    }

    /// The diff for people: changed lines with up to `context` unchanged lines
    /// around them, `-` for expected, `+` for actual; where a run removes and
    /// adds as many lines, each pair's differing fields are spelled out.
    public static func render(expected: [OutputLine], actual: [OutputLine], context: Int = 2, indent: String = "    ") -> [String] {
        let entries = entries(expected: expected, actual: actual)
        var keep = [Bool](repeating: false, count: entries.count)
        for (k, entry) in entries.enumerated() where !isSame(entry) {
            for c in max(0, k - context)...min(entries.count - 1, k + context) { keep[c] = true }
        }
        var lines: [String] = []
        var skipped = false
        var k = 0
        while k < entries.count {
            guard keep[k] else {
                if !skipped { lines.append(indent + "  …") }
                skipped = true
                k += 1
                continue
            }
            skipped = false
            if case .same(let text) = entries[k] {
                lines.append(indent + "  " + text)
                k += 1
                continue
            }
            var end = k
            while end < entries.count, !isSame(entries[end]) { end += 1 }
            let removed = entries[k..<end].compactMap { if case .removed(let t) = $0 { return t } else { return nil } }
            let added = entries[k..<end].compactMap { if case .added(let t) = $0 { return t } else { return nil } }
            for text in removed { lines.append(indent + "- " + text) }
            for text in added { lines.append(indent + "+ " + text) }
            if removed.count == added.count {
                for (r, a) in zip(removed, added) {
                    let notes = OutputLine(r).differences(to: OutputLine(a))
                    if !notes.isEmpty { lines.append(indent + "  (" + notes.joined(separator: "; ") + ")") }
                }
            }
            k = end
        }
        return lines
    }
}
