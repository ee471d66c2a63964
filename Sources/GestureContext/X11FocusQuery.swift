/// Which X11 window has the focus, and what it is, found by asking the X server
/// without ever waiting for it: each step says what to ask next, and the answers
/// come back, in the order asked, through `answered(_:)`. No I/O here; the
/// backend sends the requests and feeds the replies.
///
/// The window is the root's _NET_ACTIVE_WINDOW when a window manager keeps it.
/// Without one, the input focus, which may be a frame or a child of the window a
/// program made: the nearest window with a WM_CLASS, the focus itself, then its
/// children, then (once) its parent and the parent's children.
struct X11FocusQuery {
    enum Property: Int32 {
        // The values of GM_X11_* in CContext.h.
        case activeWindow = 0, clientList = 1, windowClass = 2, netName = 3, name = 4, pid = 5
    }

    enum Request: Equatable {
        case property(window: UInt32, Property)
        case inputFocus
        case tree(window: UInt32)
    }

    /// A property's value as the server sent it.
    struct Value: Equatable {
        var format: UInt8
        var bytes: [UInt8]
    }

    enum Answer: Equatable {
        /// nil: the window has no such property.
        case property(Value?)
        case focus(window: UInt32)
        case tree(parent: UInt32, children: [UInt32])
        /// The server refused: the window went away meanwhile.
        case refused
    }

    enum Outcome: Equatable {
        case focused(window: UInt32, AppInfo)
        case nothing
    }

    struct Step: Equatable {
        var requests: [Request] = []
        /// Set when a lookup ended: what has the focus now.
        var outcome: Outcome?
    }

    /// More children than this are not looked through (a frame has one or two).
    static let childLimit = 64

    private enum Stage {
        case idle
        case activeWindow
        case inputFocus
        /// Does `window` have a WM_CLASS? `climbed`: it is the focus's parent.
        case candidate(UInt32, climbed: Bool)
        case children(of: UInt32, climbed: Bool)
        case childClasses(parent: UInt32, children: [UInt32], answers: [Bool], climbed: Bool)
        /// WM_CLASS, _NET_WM_NAME, WM_NAME and _NET_WM_PID, asked together.
        case describing(UInt32, answers: [Value?])
    }

    let root: UInt32
    private var stage = Stage.idle
    /// The focus may have changed again while a lookup ran: one more follows it.
    private var again = false
    /// Whether a window manager keeps _NET_ACTIVE_WINDOW (learnt at each lookup).
    private(set) var followsActiveWindow = false

    init(root: UInt32) { self.root = root }

    var isAsking: Bool {
        if case .idle = stage { return false }
        return true
    }

    /// The focus may have changed: a lookup starts, or follows the one running.
    mutating func changed() -> Step {
        guard !isAsking else {
            again = true
            return Step()
        }
        stage = .activeWindow
        return Step(requests: [.property(window: root, .activeWindow)])
    }

    /// The answer to the oldest request not yet answered.
    mutating func answered(_ answer: Answer) -> Step {
        switch stage {
        case .idle:
            return Step()
        case .activeWindow:
            if case .property(let value?) = answer {
                followsActiveWindow = true
                return look(at: Self.windows(in: value).first ?? 0)
            }
            followsActiveWindow = false
            stage = .inputFocus
            return Step(requests: [.inputFocus])
        case .inputFocus:
            guard case .focus(let window) = answer else { return finish(.nothing) }
            return candidate(window, climbed: false)
        case .candidate(let window, let climbed):
            if case .property(let value?) = answer, value.format == 8 { return describe(window) }
            stage = .children(of: window, climbed: climbed)
            return Step(requests: [.tree(window: window)])
        case .children(let window, let climbed):
            guard case .tree(let parent, let children) = answer else { return finish(.nothing) }
            // A server that names None, the root or the window itself as a child
            // is not believed: describing one would name the desktop as the app.
            let root = self.root
            let looked = Array(children.lazy.filter { $0 > 1 && $0 != root && $0 != window }.prefix(Self.childLimit))
            guard !looked.isEmpty else { return climb(from: parent, climbed: climbed) }
            stage = .childClasses(parent: parent, children: looked, answers: [], climbed: climbed)
            return Step(requests: looked.map { .property(window: $0, .windowClass) })
        case .childClasses(let parent, let children, var answers, let climbed):
            if case .property(let value?) = answer, value.format == 8 { answers.append(true) } else { answers.append(false) }
            guard answers.count == children.count else {
                stage = .childClasses(parent: parent, children: children, answers: answers, climbed: climbed)
                return Step()
            }
            if let index = answers.firstIndex(of: true) { return describe(children[index]) }
            return climb(from: parent, climbed: climbed)
        case .describing(let window, var answers):
            if case .property(let value) = answer { answers.append(value) } else { answers.append(nil) }
            guard answers.count == 4 else {
                stage = .describing(window, answers: answers)
                return Step()
            }
            return finish(.focused(window: window, Self.app(class: answers[0], netName: answers[1], name: answers[2], pid: answers[3])))
        }
    }

    /// The active window as the window manager names it (None while it moves the focus).
    private mutating func look(at window: UInt32) -> Step {
        guard window != 0, window != root else { return finish(.nothing) }
        return describe(window)
    }

    private mutating func candidate(_ window: UInt32, climbed: Bool) -> Step {
        // 0 is None, 1 PointerRoot: nothing has the focus.
        guard window > 1, window != root else { return finish(.nothing) }
        stage = .candidate(window, climbed: climbed)
        return Step(requests: [.property(window: window, .windowClass)])
    }

    private mutating func climb(from parent: UInt32, climbed: Bool) -> Step {
        guard !climbed else { return finish(.nothing) }
        return candidate(parent, climbed: true)
    }

    private mutating func describe(_ window: UInt32) -> Step {
        stage = .describing(window, answers: [])
        return Step(requests: [.property(window: window, .windowClass), .property(window: window, .netName),
                               .property(window: window, .name), .property(window: window, .pid)])
    }

    private mutating func finish(_ outcome: Outcome) -> Step {
        stage = .idle
        guard again else { return Step(outcome: outcome) }
        again = false
        var next = changed()
        next.outcome = outcome
        return next
    }

    // MARK: reading values

    /// 32-bit items (window ids, cardinals): xcb asks the server for this
    /// machine's byte order, so they are read as they are.
    static func windows(in value: Value) -> [UInt32] {
        guard value.format == 32 else { return [] }
        return value.bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self) }
        }
    }

    /// Text up to its first NUL.
    static func text(_ value: Value?) -> String? {
        guard let value, value.format == 8 else { return nil }
        return String(decoding: value.bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    /// WM_CLASS is "instance\0Class\0": the class is the second string.
    static func className(_ value: Value?) -> String {
        guard let value, value.format == 8 else { return "" }
        let parts = value.bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let chosen = parts.count > 1 && !parts[1].isEmpty ? parts[1] : parts.first ?? []
        return String(decoding: chosen, as: UTF8.self)
    }

    static func app(class windowClass: Value?, netName: Value?, name: Value?, pid: Value?) -> AppInfo {
        let title = text(netName) ?? text(name) ?? ""
        let number = pid.map(windows(in:))?.first
        let validPid = number.flatMap { $0 > 0 && $0 <= UInt32(Int32.max) ? Int($0) : nil }
        return AppInfo(id: className(windowClass), title: title, pid: validPid)
    }
}
