/// The applications one rule is limited to, each an X11 class or app id that
/// gesturemap matches whole, letters in either case.
public struct AppList: Sendable, Equatable {
    /// The names as the source wrote them, in order, each once (in either case).
    public let names: [String]
    /// Equal for lists of the same applications in any order or case: rules
    /// with equal ones are for the same applications.
    let setID: Int
    /// Equal for lists read from one place (one `<application>`): a list that
    /// several rules share is written once.
    let listID: Int
    /// The line of the source that names them.
    let line: Int
    /// The first names, for a message: "Firefox, Chromium and 3 more".
    let summary: String
    /// How many names the source gave, repeats included: each one a binding of the tool's.
    let sourceCount: Int

    public static func == (a: AppList, b: AppList) -> Bool { a.names == b.names }
}

/// Makes `AppList`s, numbering the sets and the lists it has seen.
struct AppLists {
    private var sets: [String: Int] = [:]
    private var lists = 0

    /// The names, without repeats in either case (ASCII, as gesturemap and
    /// Touchégg both fold them).
    mutating func make(_ names: [String], line: Int) -> AppList {
        var seen = Set<String>()
        var kept: [String] = []
        for name in names where seen.insert(AppPatternText.lowercasedASCII(name)).inserted {
            kept.append(name)
        }
        let key = seen.sorted().joined(separator: "\u{0}")
        let setID = sets[key] ?? sets.count
        sets[key] = setID
        lists += 1
        return AppList(names: kept, setID: setID, listID: lists, line: line, summary: Self.summary(kept), sourceCount: names.count)
    }

    static func summary(_ names: [String]) -> String {
        var shown: [String] = []
        var length = 0
        for name in names {
            guard length < 120 else { break }
            shown.append(name.isEmpty ? "\"\"" : LuaText.printable(name, limit: 60))
            length += shown[shown.count - 1].count + 2
        }
        let more = names.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }
}

enum AppPatternText {
    static func lowercasedASCII(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
