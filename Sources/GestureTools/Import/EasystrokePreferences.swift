/// The stroke button from Easystroke's preferences file beside the actions
/// file (`PrefDB::serialize`, prefdb.cc): its first fields are the
/// exceptions (applications where strokes are off or use another button),
/// a number that version 14 dropped, then the button (`ButtonInfo`: the X
/// button and the modifier keys held with it).
public enum EasystrokePreferences {
    /// The names Easystroke saves its preferences under, newest first.
    public static let names = ["preferences-0.5.5", "preferences-0.4.1", "preferences-0.4.0", "preferences"]

    public struct StrokeButton: Equatable, Sendable {
        /// X's button number: 2 is the middle one.
        public var number: Int
        /// Where it came from, for the rules file's header.
        public var source: String
        /// What people should know: the file could not be read, modifiers are held with the button...
        public var warnings: [String]
        /// Applications where Easystroke takes no strokes, or strokes of another button.
        public var exceptions: [String]
    }

    static let fallback = "Easystroke's default, the middle button (Button2, prefdb.cc)"

    /// No preferences file could be read: Easystroke's default, and why.
    public static func middle(because why: String, warnings: [String] = []) -> StrokeButton {
        StrokeButton(number: 2, source: fallback + ": " + why, warnings: warnings, exceptions: [])
    }

    public static func read(_ bytes: [UInt8], path: String) -> StrokeButton {
        var reader = Reader(archive: BoostTextArchive(bytes))
        do throws(BoostTextArchive.Failure) {
            let (button, state, exceptions) = try reader.read()
            var warnings: [String] = []
            if state != 0 && state != UInt32(Easystroke.Stroke.anyModifier) {
                warnings.append("\(path): warning: Easystroke's stroke button is button \(button) with modifier keys held (mask 0x\(String(state, radix: 16))); gesturemap's stroke button takes no modifier keys, so the rules take strokes made without them too")
            }
            if !exceptions.isEmpty {
                warnings.append("\(path): warning: Easystroke takes no strokes, or strokes of another button, in \(exceptions.count) application\(exceptions.count == 1 ? "" : "s") (\(AppLists.summary(exceptions))); gesturemap's rules take them there too, since a rule cannot leave one application out")
            }
            return StrokeButton(number: Int(button), source: "from \(path)", warnings: warnings, exceptions: exceptions)
        } catch {
            return StrokeButton(number: 2, source: fallback, warnings: ["\(path):\(error.line): warning: \(error.message); Easystroke cannot read it either and takes the middle button, and so does the import"], exceptions: [])
        }
    }

    /// Just enough of Boost's text archive for the first three fields.
    struct Reader {
        var archive: BoostTextArchive
        var classes: [(key: String, tracked: Bool, version: Int)] = []
        var objects = 0

        mutating func preamble(_ key: String) throws(BoostTextArchive.Failure) -> (tracked: Bool, version: Int) {
            if let known = classes.first(where: { $0.key == key }) { return (known.tracked, known.version) }
            let tracked = try archive.bool("the tracking flag of class \(key)")
            let version = try archive.count("the version of class \(key)")
            classes.append((key, tracked, version))
            return (tracked, version)
        }

        /// An object in place: its preamble the first time, its object id when tracked.
        mutating func object(_ key: String) throws(BoostTextArchive.Failure) -> Int {
            let (tracked, version) = try preamble(key)
            if tracked {
                let oid = try archive.count("the object id of a \(key)")
                guard oid >= objects else { throw archive.failure("object id \(oid) refers back where a \(key) belongs") }
                objects += 1
            }
            return version
        }

        mutating func read() throws(BoostTextArchive.Failure) -> (button: UInt32, state: UInt32, exceptions: [String]) {
            try archive.readHeader()
            let version = try object("PrefDB")
            var exceptions: [String] = []
            if version < 11 {
                _ = try object("set<string>")
                for _ in 0..<(try header()) { exceptions.append(String(decoding: try archive.string("an application's name"), as: UTF8.self)) }
            } else {
                _ = try object("map<string,RButtonInfo>")
                for _ in 0..<(try header()) {
                    _ = try object("pair<string,RButtonInfo>")
                    exceptions.append(String(decoding: try archive.string("an application's name"), as: UTF8.self))
                    guard try object("shared_ptr<ButtonInfo>") >= 1 else {
                        throw archive.failure("a shared_ptr of Boost 1.32's layout (class version 0)")
                    }
                    try buttonPointer()
                }
            }
            if version < 14 { _ = try archive.double("the old sensitivity") }
            let buttonVersion = try object("ButtonInfo")
            let button = try buttonInfo(version: buttonVersion)
            return (button.button, button.state, exceptions)
        }

        mutating func header() throws(BoostTextArchive.Failure) -> Int {
            let n = try archive.count("the number of exceptions")
            if archive.libraryVersion > 3 { _ = try archive.count("the item version of the exceptions") }
            return n
        }

        mutating func buttonPointer() throws(BoostTextArchive.Failure) {
            let cid = try archive.integer("a class id")
            if cid == -1 { return }
            let key = "ButtonInfo"
            let known = classes.firstIndex { $0.key == key }
            guard cid >= 0, cid == known ?? classes.count else {
                throw archive.failure("class id \(cid) is no ButtonInfo; the preferences file is damaged")
            }
            let (tracked, version) = try preamble(key)
            if tracked {
                let oid = try archive.count("the object id of a ButtonInfo")
                if oid < objects { return }
                objects += 1
            }
            _ = try buttonInfo(version: version)
        }

        mutating func buttonInfo(version: Int) throws(BoostTextArchive.Failure) -> (button: UInt32, state: UInt32) {
            let button = try unsigned("a button")
            let state = try unsigned("a button's modifiers")
            if version == 1 { _ = try archive.integer("an old flag") }
            if version >= 3 { _ = try archive.bool("a button's instant flag") }
            if version >= 4 { _ = try archive.bool("a button's click-and-hold flag") }
            return (button, state)
        }

        mutating func unsigned(_ what: String) throws(BoostTextArchive.Failure) -> UInt32 {
            let n = try archive.integer(what)
            guard let value = UInt32(exactly: n) else { throw archive.failure("\(what) is \(n), where 0 to \(UInt32.max) belongs") }
            return value
        }
    }
}
