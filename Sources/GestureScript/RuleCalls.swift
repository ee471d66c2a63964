import Glibc
import GestureSystem

extension ScriptRuntime {
    /// Where the loaded rules (the rules file and the modules it required)
    /// first call global `name` directly, found by reading their text.
    public func firstCall(ofGlobal name: String, member: Bool = false) -> (file: String, line: Int)? {
        for file in load.sourceFiles {
            guard let text = RuleText.read(file), let line = CallScanner.firstCall(of: name, in: text, member: member) else { continue }
            return (file, line)
        }
        return nil
    }
}

/// A rules file's bytes, read again after Lua loaded it: only a regular file,
/// without waiting (it may have been replaced by a FIFO since), and only as
/// large as a rules file can sensibly be.
enum RuleText {
    static let limit = 16 << 20

    static func read(_ path: String) -> [UInt8]? {
        try? BoundedFile.read(path, limit: limit).get()
    }
}
