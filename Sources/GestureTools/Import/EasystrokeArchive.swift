/// Loads Easystroke's actions file as its `ActionDB::load` does through
/// Boost's `text_iarchive`: every class with class information gets an id the
/// first time it is met (then its tracking flag and version follow, once),
/// tracked objects get object ids, and a pointer is a class id (and, the first
/// time, an exported class's name), then a new object or the id of one read
/// before. Each class is read as its `serialize` or `load` reads the version
/// the archive gives (actiondb.cc, gesture.h).
struct EasystrokeArchive {
    typealias Failure = BoostTextArchive.Failure

    /// Lists nested deeper than this are no one's configuration.
    static let maxDepth = 64

    private var archive: BoostTextArchive
    /// The preferences' stroke button, which older strokes (class version
    /// before 4) compare their trigger with.
    private let strokeButton: Int

    private struct ClassInfo {
        var key: String
        var viaPointer: Bool
        var initialized = false
        var tracking = false
        var version = 0
    }

    private enum Object {
        case pending(String)
        case unique
        case stroke(Easystroke.Stroke)
        case action(Easystroke.Action)
        case value(String)
    }

    private var classes: [ClassInfo] = []
    private var classIDs: [String: Int] = [:]
    private var objects: [Object] = []
    private var depth = 0
    private var syntheticUnique = -1

    /// The classes a `shared_ptr<Action>` may hold (BOOST_CLASS_EXPORT in actiondb.cc).
    static let actionClasses: Set<String> = ["Command", "ModAction", "SendKey", "SendText", "Scroll", "Ignore", "Button", "Misc"]

    init(_ bytes: [UInt8], strokeButton: Int) {
        archive = BoostTextArchive(bytes)
        self.strokeButton = strokeButton
    }

    /// The default list, with its applications and groups below it.
    static func load(_ bytes: [UInt8], strokeButton: Int) -> Result<Easystroke.ActionList, Failure> {
        var reader = EasystrokeArchive(bytes, strokeButton: strokeButton)
        do {
            try reader.archive.readHeader()
            return .success(try reader.actionDB())
        } catch {
            return .failure(error)
        }
    }

    // MARK: Boost's preamble, object ids and pointers

    private mutating func preamble(_ id: Int) throws(Failure) {
        guard !classes[id].initialized else { return }
        classes[id].tracking = try archive.bool("the tracking flag of class \(classes[id].key)")
        classes[id].version = try archive.count("the version of class \(classes[id].key)")
        classes[id].initialized = true
    }

    /// An object stored in place (`load_object`): its class's preamble the
    /// first time, then its object id when the class is tracked. Returns the
    /// class version, and the slot of a tracked object.
    private mutating func object(_ key: String) throws(Failure) -> (version: Int, slot: Int?) {
        let id: Int
        if let known = classIDs[key] {
            id = known
        } else {
            id = classes.count
            classes.append(ClassInfo(key: key, viaPointer: false))
            classIDs[key] = id
        }
        try preamble(id)
        guard classes[id].tracking else { return (classes[id].version, nil) }
        let oid = try archive.count("the object id of a \(key)")
        guard oid >= objects.count else {
            throw archive.failure("object id \(oid) refers back to an earlier object where a \(key) belongs; Easystroke writes its \(key)s in place, so the archive is damaged")
        }
        objects.append(.pending(key))
        return (classes[id].version, objects.count - 1)
    }

    private enum Pointer {
        case null
        case earlier(Int)
        case new(key: String, version: Int, slot: Int?)
    }

    /// A pointer (`load_pointer`): a class id (-1 for null), an exported
    /// class's name when the id is new, the preamble, then a new object or
    /// the id of one read before.
    private mutating func pointer(to staticKey: String, allowed: Set<String>, polymorphic: Bool) throws(Failure) -> Pointer {
        let cid = try archive.integer("a class id")
        if cid == -1 { return .null }
        guard cid >= 0, cid <= classes.count else {
            throw archive.failure("class id \(cid) is neither a class read before (0 to \(classes.count - 1)) nor the next new one (\(classes.count)); the archive is damaged")
        }
        if cid == classes.count {
            var key = staticKey
            if polymorphic {
                let name = try archive.string("a class name")
                key = String(decoding: name, as: UTF8.self)
                guard allowed.contains(key) else {
                    throw archive.failure("class \"\(LuaText.printable(key, limit: 60))\" is no \(staticKey) Easystroke knows (\(allowed.sorted().joined(separator: ", "))); Easystroke refuses the file")
                }
            }
            guard classIDs[key] == nil else {
                throw archive.failure("class \(key) is given a second class id; the archive is damaged")
            }
            classes.append(ClassInfo(key: key, viaPointer: true))
            classIDs[key] = cid
        } else {
            guard classes[cid].viaPointer, allowed.contains(classes[cid].key) else {
                throw archive.failure("class id \(cid) is \(classes[cid].key), where \(staticKey == "Action" ? "an" : "a") \(staticKey) pointer belongs; the archive is damaged")
            }
        }
        try preamble(cid)
        let key = classes[cid].key
        guard classes[cid].tracking else { return .new(key: key, version: classes[cid].version, slot: nil) }
        let oid = try archive.count("the object id of a \(key)")
        if oid < objects.count { return .earlier(oid) }
        objects.append(.pending(key))
        return .new(key: key, version: classes[cid].version, slot: objects.count - 1)
    }

    private mutating func collectionHeader(_ what: String) throws(Failure) -> Int {
        let n = try archive.count("the number of \(what)")
        if archive.libraryVersion > 3 { _ = try archive.count("the item version of \(what)") }
        return n
    }

    /// An identity for an untracked object, which has no object id: below every real one.
    private mutating func newSyntheticID() -> Int {
        syntheticUnique -= 1
        return syntheticUnique
    }

    private mutating func store(_ object: Object, at slot: Int?) {
        if let slot { objects[slot] = object }
    }

    // MARK: Easystroke's classes

    private mutating func actionDB() throws(Failure) -> Easystroke.ActionList {
        let (version, slot) = try object("ActionDB")
        defer { store(.value("ActionDB"), at: slot) }
        // wstroke's own format (actiondb.cc: version 5, actions-wstroke-2) numbers strokes instead of pointing at them.
        guard version < 5 else {
            throw archive.failure("ActionDB version \(version) is wstroke's own format (actions-wstroke-2), which Easystroke cannot read; import reads Easystroke's actions-0.5.6, which wstroke reads too")
        }
        if version >= 2 { return try actionList() }
        var root = Easystroke.ActionList(name: "Default", app: false, deleted: [], added: [], children: [], line: archive.line)
        // Versions 0 and 1 keep a map of names or numbers to entries; each becomes an entry of the default list.
        let keyed = version == 0 ? "string" : "int"
        let (_, mapSlot) = try object("map<\(keyed),StrokeInfo>")
        let count = try collectionHeader("entries")
        var seen = Set<String>()
        for _ in 0..<count {
            let (_, pairSlot) = try object("pair<\(keyed),StrokeInfo>")
            let key = version == 0 ? String(decoding: try archive.string("an action's name"), as: UTF8.self) : String(try archive.integer("an action's number"))
            var info = try strokeInfo()
            store(.value("pair"), at: pairSlot)
            // A map keeps the first of two equal keys.
            guard seen.insert(key).inserted else { continue }
            if version == 0 { info.name = key }
            root.added.append((newSyntheticID(), info))
        }
        store(.value("map"), at: mapSlot)
        return root
    }

    private mutating func actionList() throws(Failure) -> Easystroke.ActionList {
        let line = archive.line
        let (version, slot) = try object("ActionListDiff")
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            throw archive.failure("action lists nested more than \(Self.maxDepth) deep: no Easystroke configuration is, so the archive is damaged")
        }
        var list = Easystroke.ActionList(name: "", app: false, deleted: [], added: [], children: [], line: line)
        let (_, deletedSlot) = try object("set<Unique*>")
        for _ in 0..<(try collectionHeader("deleted actions")) {
            if let id = try unique(), !list.deleted.contains(id) { list.deleted.append(id) }
        }
        store(.value("set"), at: deletedSlot)
        let (_, addedSlot) = try object("map<Unique*,StrokeInfo>")
        var added = Set<Int>()
        for _ in 0..<(try collectionHeader("actions")) {
            let (_, pairSlot) = try object("pair<Unique*,StrokeInfo>")
            let id = try unique()
            let info = try strokeInfo()
            store(.value("pair"), at: pairSlot)
            // A map keeps the first of two equal keys; a null key is a key too.
            if let id, added.insert(id).inserted { list.added.append((id, info)) }
        }
        store(.value("map"), at: addedSlot)
        list.name = String(decoding: try archive.string("an action list's name"), as: UTF8.self)
        let (_, childrenSlot) = try object("list<ActionListDiff>")
        for _ in 0..<(try collectionHeader("action lists")) {
            list.children.append(try actionList())
        }
        store(.value("list"), at: childrenSlot)
        list.app = try archive.bool("an action list's application flag")
        if version >= 1 {
            let (_, orderSlot) = try object("list<Unique*>")
            for _ in 0..<(try collectionHeader("the order of actions")) { _ = try unique() }
            store(.value("list"), at: orderSlot)
        }
        store(.value("ActionListDiff"), at: slot)
        return list
    }

    /// A `Unique *`: the object id that names one entry across the lists; nil for a null pointer.
    private mutating func unique() throws(Failure) -> Int? {
        switch try pointer(to: "Unique", allowed: ["Unique"], polymorphic: false) {
        case .null:
            return nil
        case .earlier(let oid):
            guard case .unique = objects[oid] else {
                throw archive.failure("object id \(oid) is no Unique, where one belongs; the archive is damaged")
            }
            return oid
        case .new(_, _, let slot):
            // Unique has no data; untracked, every one is new.
            guard let slot else { return newSyntheticID() }
            objects[slot] = .unique
            return slot
        }
    }

    private mutating func strokeInfo() throws(Failure) -> Easystroke.Info {
        let line = archive.line
        let (version, slot) = try object("StrokeInfo")
        let strokes = try strokeSet()
        let action = try actionPointer()
        let name = version == 0 ? "" : String(decoding: try archive.string("an action's name"), as: UTF8.self)
        store(.value("StrokeInfo"), at: slot)
        return Easystroke.Info(strokes: strokes, action: action, name: name, line: line)
    }

    private mutating func strokeSet() throws(Failure) -> [Easystroke.Stroke] {
        let (_, slot) = try object("StrokeSet")
        let (_, setSlot) = try object("set<RStroke>")
        var strokes: [Easystroke.Stroke] = []
        for _ in 0..<(try collectionHeader("strokes")) {
            let (pointerVersion, pointerSlot) = try object("shared_ptr<Stroke>")
            guard pointerVersion >= 1 else {
                throw archive.failure("a shared_ptr of Boost 1.32's layout (class version 0): re-save the file with Easystroke 0.4 or later")
            }
            var stroke: Easystroke.Stroke?
            switch try pointer(to: "Stroke", allowed: ["Stroke"], polymorphic: false) {
            case .null:
                break
            case .earlier(let oid):
                guard case .stroke(let s) = objects[oid] else {
                    throw archive.failure("object id \(oid) is no Stroke, where one belongs; the archive is damaged")
                }
                stroke = s
            case .new(_, let version, let strokeSlot):
                let s = try self.stroke(version: version, id: strokeSlot ?? newSyntheticID())
                store(.stroke(s), at: strokeSlot)
                stroke = s
            }
            store(.value("shared_ptr"), at: pointerSlot)
            // A set holds each pointer once; a null one never matches a stroke.
            if let stroke, !strokes.contains(where: { $0.id == stroke.id }) { strokes.append(stroke) }
        }
        store(.value("set"), at: setSlot)
        store(.value("StrokeSet"), at: slot)
        return strokes
    }

    private mutating func stroke(version: Int, id: Int) throws(Failure) -> Easystroke.Stroke {
        let line = archive.line
        var points: [(x: Double, y: Double)] = []
        let (_, vectorSlot) = try object("vector<Point>")
        for _ in 0..<(try collectionHeader("points")) {
            let (pointVersion, pointSlot) = try object("Point")
            let x = try archive.double("a point's x")
            let y = try archive.double("a point's y")
            if pointVersion == 0 { _ = try archive.double("a point's time") }
            store(.value("Point"), at: pointSlot)
            points.append((x, y))
        }
        store(.value("vector"), at: vectorSlot)
        var stroke = Easystroke.Stroke(id: id, line: line, points: points, button: 0, trigger: 0, timeout: false, modifiers: Easystroke.Stroke.anyModifier)
        if version == 0 { return stroke }
        stroke.button = try int32("a stroke's button")
        if version >= 2 { stroke.trigger = try int32("a stroke's trigger") }
        // Before version 4 the stroke button itself was written as the trigger.
        if version < 4 && (stroke.button == 0 || stroke.trigger == strokeButton) { stroke.trigger = 0 }
        if version < 3 { return stroke }
        stroke.timeout = try archive.bool("a stroke's timeout flag")
        if version < 5 { return stroke }
        stroke.modifiers = try uint32("a stroke's modifiers")
        return stroke
    }

    private mutating func int32(_ what: String) throws(Failure) -> Int {
        let n = try archive.integer(what)
        guard n >= Int(Int32.min), n <= Int(Int32.max) else { throw archive.failure("\(what) is \(n), too large for its int") }
        return n
    }

    private mutating func uint32(_ what: String) throws(Failure) -> UInt32 {
        let n = try archive.integer(what)
        guard let value = UInt32(exactly: n) else { throw archive.failure("\(what) is \(n), where 0 to \(UInt32.max) belongs") }
        return value
    }

    private mutating func actionPointer() throws(Failure) -> Easystroke.Action? {
        let (pointerVersion, pointerSlot) = try object("shared_ptr<Action>")
        guard pointerVersion >= 1 else {
            throw archive.failure("a shared_ptr of Boost 1.32's layout (class version 0): re-save the file with Easystroke 0.4 or later")
        }
        defer { store(.value("shared_ptr"), at: pointerSlot) }
        switch try pointer(to: "Action", allowed: Self.actionClasses, polymorphic: true) {
        case .null:
            return nil
        case .earlier(let oid):
            guard case .action(let action) = objects[oid] else {
                throw archive.failure("object id \(oid) is no action, where one belongs; the archive is damaged")
            }
            return action
        case .new(let key, let version, let slot):
            let action = try self.action(key, version: version)
            store(.action(action), at: slot)
            return action
        }
    }

    /// `base_object<Action>`: no data, but a class of its own.
    private mutating func actionBase() throws(Failure) {
        let (_, slot) = try object("Action")
        store(.value("Action"), at: slot)
    }

    /// `base_object<ModAction>`: the modifier mask.
    private mutating func modifiersBase() throws(Failure) -> UInt32 {
        let (_, slot) = try object("ModAction")
        try actionBase()
        let mods = try uint32("an action's modifiers")
        store(.value("ModAction"), at: slot)
        return mods
    }

    private mutating func action(_ key: String, version: Int) throws(Failure) -> Easystroke.Action {
        switch key {
        case "Command":
            try actionBase()
            return .command(String(decoding: try archive.string("a command"), as: UTF8.self))
        case "SendKey":
            let mods = try modifiersBase()
            let keysym = try uint32("a key's keysym")
            _ = try uint32("a key's keycode")
            if version < 1 { _ = try archive.bool("a key's XTest flag") }
            return .sendKey(modifiers: mods, keysym: keysym)
        case "SendText":
            try actionBase()
            return .sendText(String(decoding: try archive.string("a text"), as: UTF8.self))
        case "Scroll":
            return .scroll(modifiers: try modifiersBase())
        case "Ignore":
            return .ignore(modifiers: try modifiersBase())
        case "Button":
            let mods = try modifiersBase()
            return .button(modifiers: mods, button: try uint32("a button"))
        case "Misc":
            try actionBase()
            return .misc(try int32("a Misc action's type"))
        default:
            try actionBase()
            return .modifiers(try uint32("an action's modifiers"))
        }
    }
}
