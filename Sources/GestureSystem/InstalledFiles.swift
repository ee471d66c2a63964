import Glibc

/// Where the files gesturemap ships beside its binary are on this machine
/// (the udev rule, the systemd unit, the examples), so that a fix names a
/// path that exists: `scripts/install` puts them in PREFIX/share/gesturemap,
/// the Debian package in /usr/share/doc/gesturemap, and a build runs from
/// its checkout.
public enum InstalledFiles {
    /// The absolute path of `file` under the examples (as "udev/70-gesturemap.rules"),
    /// from the install or checkout this binary runs from first; nil when none holds it.
    public static func example(_ file: String) -> String? {
        exampleFolders().lazy.map { $0 + "/" + file }.first { access($0, R_OK) == 0 }
    }

    /// The folders that may hold the examples, those of this binary's own install first.
    static func exampleFolders(executable: String? = executablePath()) -> [String] {
        var folders: [String] = []
        if let executable {
            let bin = parent(executable)
            // PREFIX/bin/gesturemap: PREFIX/share/...
            if bin.hasSuffix("/bin") {
                let prefix = parent(bin)
                folders += [prefix + "/share/gesturemap/examples", prefix + "/share/doc/gesturemap/examples"]
            }
            if let checkout = checkout(containing: bin) { folders.append(checkout + "/examples") }
        }
        folders += ["/usr/share/gesturemap/examples", "/usr/share/doc/gesturemap/examples", "/usr/local/share/gesturemap/examples"]
        return folders
    }

    /// The checkout a build runs from: the nearest folder above with Package.swift
    /// and examples/ (the binary is in CHECKOUT/.build/TRIPLE/CONFIGURATION).
    static func checkout(containing folder: String) -> String? {
        var folder = folder
        for _ in 0..<6 {
            guard folder.count > 1 else { return nil }
            if access(folder + "/Package.swift", R_OK) == 0, access(folder + "/examples", R_OK) == 0 { return folder }
            folder = parent(folder)
        }
        return nil
    }

    /// This process's binary, links resolved.
    static func executablePath() -> String? {
        FileSystem.resolvedPath("/proc/self/exe")
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
