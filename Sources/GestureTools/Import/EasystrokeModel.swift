/// What Easystroke's actions file holds, as its classes load it (actiondb.h,
/// gesture.h, thjaeger/easystroke): a tree of action lists, each adding and
/// deleting strokes relative to its parent.
public enum Easystroke {
    /// A recorded stroke (class `Stroke`).
    public struct Stroke: Equatable, Sendable {
        /// Its object id in the archive: the same stroke shared is one template.
        public var id: Int
        /// The line of the archive it was read from.
        public var line: Int
        /// Easystroke's points, normalized to its own unit box, y down.
        public var points: [(x: Double, y: Double)]
        /// The second button of an instant gesture (X's numbering, 4 to 7 the
        /// wheel), 0 for a stroke.
        public var button: Int
        /// The button held to draw it, 0 for the stroke button of the preferences.
        public var trigger: Int
        /// A gesture made by holding the button still.
        public var timeout: Bool
        /// Modifier keys it is bound to (class version 5); 0x8000, X's AnyModifier, for any.
        public var modifiers: UInt32

        public static func == (a: Stroke, b: Stroke) -> Bool {
            a.id == b.id && a.line == b.line && a.button == b.button && a.trigger == b.trigger && a.timeout == b.timeout
                && a.modifiers == b.modifiers && a.points.elementsEqual(b.points) { $0.x == $1.x && $0.y == $1.y }
        }

        public static let anyModifier: UInt32 = 1 << 15
    }

    /// An action (class `Action` and its exported subclasses).
    public enum Action: Equatable, Sendable {
        case command(String)
        /// An X keysym and GDK modifier mask.
        case sendKey(modifiers: UInt32, keysym: UInt32)
        case sendText(String)
        case scroll(modifiers: UInt32)
        case ignore(modifiers: UInt32)
        /// An X button number (1 left, 2 middle, 3 right...).
        case button(modifiers: UInt32, button: UInt32)
        /// 0 none, 1 unminimize, 2 show/hide, 3 disable.
        case misc(Int)
        /// `ModAction` itself, which Easystroke never makes: it holds modifiers.
        case modifiers(UInt32)
    }

    /// One entry of a list (class `StrokeInfo`): in a child list, an empty
    /// name, no strokes or no action mean the parent's.
    public struct Info: Equatable, Sendable {
        public var strokes: [Stroke]
        public var action: Action?
        public var name: String
        public var line: Int
    }

    /// An action list (class `ActionListDiff`): the default list, an
    /// application (`app`, named by its WM_CLASS), or a group of them.
    public struct ActionList: Equatable, Sendable {
        public var name: String
        public var app: Bool
        /// The entries it deletes from its parent's, by their `Unique` object id.
        public var deleted: [Int]
        /// The entries it adds or changes, by their `Unique` object id, in the archive's order.
        public var added: [(unique: Int, info: Info)]
        public var children: [ActionList]
        public var line: Int

        public static func == (a: ActionList, b: ActionList) -> Bool {
            a.name == b.name && a.app == b.app && a.deleted == b.deleted && a.children == b.children
                && a.added.elementsEqual(b.added) { $0.unique == $1.unique && $0.info == $1.info }
        }
    }
}
