import Glibc
import CLuaShim
import GestureSystem

/// `require(name)`: plain Lua modules from the rules file's directory, and
/// nowhere else, links included.
extension ScriptRuntime {
    /// Called by the prelude's `require`, so errors name the line that required.
    /// Returns the file to read and the path to name it by.
    func findModule(_ stack: LuaView) -> Int32 {
        func fail(_ message: String) -> Int32 { raise(stack, message, level: 2) }
        guard let name = stack.string(at: 1, limit: 256), !name.isEmpty,
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }),
              !name.contains(".."), !name.hasPrefix(".") else {
            return fail("require() takes a module name such as \"helpers\" or \"lib.paging\" (a file next to the rules file)")
        }
        let path = load.moduleDirectory + "/" + name.replacingDots() + ".lua"
        guard isRegularFile(path) else {
            return fail("module \"\(name)\" not found: no file \(path); require only loads Lua files next to the rules file")
        }
        guard let real = FileSystem.resolvedPath(path), let directory = FileSystem.resolvedPath(load.moduleDirectory) else {
            return fail("module \"\(name)\": cannot resolve \(path): \(String(cString: strerror(errno)))")
        }
        let inside = directory == "/" ? real.hasPrefix("/") : real.hasPrefix(directory + "/")
        guard inside else {
            return fail("module \"\(name)\": \(path) leads to \(real), outside the rules file's directory \(directory); require only loads files inside it")
        }
        do {
            try checkSecurity(of: real)
        } catch {
            return fail(error.description)
        }
        load.chunkNames.add(path)
        if !load.sourceFiles.contains(path) { load.sourceFiles.append(path) }
        stack.push(real)
        stack.push(path)
        return 2
    }
}

extension String {
    func replacingDots() -> String { String(map { $0 == "." ? "/" : $0 }) }
}

private func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}
