/// What each list of an Easystroke tree binds once its parents are applied,
/// as `ActionListDiff::get_strokes` and `get_info` resolve it: a list starts
/// from its parent's strokes, drops those it deletes, then sets those it adds
/// with strokes; an entry's name, strokes and action are each the nearest
/// list's that gives one (an empty name, no strokes or no action mean the
/// parent's), whether or not a list between deleted it.
public struct EasystrokeLists: Sendable {
    /// One stroke that runs an entry's action in a list.
    public struct Binding: Sendable {
        /// The entry (its `Unique`'s object id), shared by the lists that inherit it.
        public var unique: Int
        public var stroke: Easystroke.Stroke
        public var action: Easystroke.Action?
        public var name: String
        /// The line of the nearest entry that changed it.
        public var line: Int
    }

    /// A list Easystroke looks windows up in: the default one, or an application's.
    public struct Context: Sendable {
        /// nil for the default list; else the WM_CLASS it serves.
        public var app: String?
        public var line: Int
        public var bindings: [Binding]
    }

    public var root: Context
    /// Applications in the order Easystroke's `add_apps` meets them; of two
    /// with one name, the later (it replaces the earlier in its map).
    public var apps: [Context]
    /// Every list's bindings together, its parents' included, stop here: a
    /// file of a few kilobytes could otherwise make billions (many
    /// applications under a list of many strokes).
    public static let maxBindings = 100_000
    /// The line of the list past `maxBindings`, where reading stopped.
    public private(set) var overflowLine: Int?

    /// Applications a later list of the same name replaces: their lines.
    public var replacedApps: [(name: String, line: Int, by: Int)] = []

    private struct State {
        /// The entries with strokes, in the order they came, and their strokes.
        var order: [Int] = []
        var strokes: [Int: [Easystroke.Stroke]] = [:]
        var count = 0
        /// Each list's own entries, from the default list down to this one:
        /// an entry is looked up along it, as `get_info` asks its parents.
        var chain: [[Int: Easystroke.Info]] = []
    }

    public init(_ tree: Easystroke.ActionList) {
        var contexts: [(name: String, context: Context)] = []
        var rootContext: Context?
        var replaced: [(String, Int, Int)] = []
        var total = 0
        var overflow: Int?
        func visit(_ list: Easystroke.ActionList, parent: State?, isRoot: Bool) {
            guard overflow == nil else { return }
            var state = parent ?? State()
            var own: [Int: Easystroke.Info] = [:]
            for (unique, info) in list.added { own[unique] = info }
            state.chain.append(own)
            if !list.deleted.isEmpty {
                for unique in list.deleted {
                    state.count -= state.strokes[unique]?.count ?? 0
                    state.strokes[unique] = nil
                }
                state.order.removeAll { state.strokes[$0] == nil }
            }
            for (unique, info) in list.added where !info.strokes.isEmpty {
                if state.strokes[unique] == nil { state.order.append(unique) }
                state.count += info.strokes.count - (state.strokes[unique]?.count ?? 0)
                state.strokes[unique] = info.strokes
            }
            total += state.count
            guard total <= Self.maxBindings else {
                overflow = list.line
                return
            }
            let context = Context(app: isRoot ? nil : list.name, line: list.line, bindings: Self.bindings(state))
            if isRoot { rootContext = context }
            if list.app {
                if let i = contexts.firstIndex(where: { $0.name == list.name }) {
                    replaced.append((list.name, contexts[i].context.line, list.line))
                    contexts.remove(at: i)
                }
                var named = context
                named.app = list.name
                contexts.append((list.name, named))
            }
            for child in list.children { visit(child, parent: state, isRoot: false) }
        }
        visit(tree, parent: nil, isRoot: true)
        root = rootContext ?? Context(app: nil, line: tree.line, bindings: [])
        apps = contexts.map(\.context)
        replacedApps = replaced.map { (name: $0.0, line: $0.1, by: $0.2) }
        overflowLine = overflow
    }

    private static func bindings(_ state: State) -> [Binding] {
        var out: [Binding] = []
        for unique in state.order {
            var action: Easystroke.Action?
            var name = ""
            var line: Int?
            for own in state.chain {
                guard let info = own[unique] else { continue }
                if !info.name.isEmpty { name = info.name }
                if let a = info.action { action = a }
                line = info.line
            }
            for stroke in state.strokes[unique] ?? [] {
                out.append(Binding(unique: unique, stroke: stroke, action: action, name: name, line: line ?? stroke.line))
            }
        }
        return out
    }
}
