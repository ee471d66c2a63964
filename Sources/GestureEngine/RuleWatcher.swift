import Glibc

/// Watches the rules file and its required modules with inotify. Editors often
/// save by writing a new file and renaming it over the old one, so the watch is
/// on each file's directory, filtered by name.
final class RuleWatcher {
    private let queue: InotifyQueue
    var fd: Int32 { queue.fd }
    private var watched: [Int32: (directory: String, names: Set<String>)] = [:]

    init?() {
        guard let queue = InotifyQueue() else { return nil }
        self.queue = queue
    }

    /// Watches exactly these files from now on.
    func watch(_ files: [String]) {
        for wd in watched.keys { inotify_rm_watch(fd, wd) }
        watched.removeAll()
        var byDirectory: [String: Set<String>] = [:]
        for file in files {
            let (dir, name) = split(file)
            byDirectory[dir, default: []].insert(name)
        }
        for (dir, names) in byDirectory {
            let wd = inotify_add_watch(fd, dir, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE))
            if wd >= 0 { watched[wd] = (dir, names) }
        }
    }

    /// Whether a watched file changed since the last call.
    func changed() -> Bool {
        // Every record is read, so none is left to wake the loop again.
        var hit = false
        for record in queue.drain() where watched[record.watch]?.names.contains(record.name) == true { hit = true }
        return hit
    }

    private func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }
}
