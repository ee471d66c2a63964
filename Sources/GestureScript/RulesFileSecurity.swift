import Glibc

/// A rules file (or a module it requires) that group or others can write,
/// refused while running as root: it would run their code as root.
struct InsecureRulesFile: Error, Equatable, CustomStringConvertible {
    var path: String

    var description: String {
        "\(path): refusing to run rules that group or others can write while running as root; chmod go-w \(path), or pass --allow-insecure-rules"
    }
}

extension ScriptRuntime {
    /// Throws when running as root without `--allow-insecure-rules` and the
    /// file at `path` is writable by group or others. A file that cannot be
    /// looked at passes: opening it says why.
    func checkSecurity(of path: String) throws(InsecureRulesFile) {
        guard geteuid() == 0, !options.allowInsecureRules else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard info.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return }
        throw InsecureRulesFile(path: path)
    }
}
