import Glibc
import GestureInput

/// Watches the input device directory with inotify, so devices that appear (or
/// come back after an unplug) are picked up without a restart. Where the
/// directory does not exist yet (no input device since boot), it watches the
/// parent until the directory appears, then reports every node already in it.
final class HotplugWatcher {
    let directory: String
    private let queue: InotifyQueue
    /// The parent's watch, while the directory is missing.
    private var parentWatch: Int32?
    var fd: Int32 { queue.fd }

    init?(directory: String) {
        guard let queue = InotifyQueue() else { return nil }
        self.directory = directory
        self.queue = queue
        if !watchDirectory() {
            let parent = HotplugWatcher.parent(of: directory)
            let watch = inotify_add_watch(queue.fd, parent, UInt32(IN_CREATE | IN_MOVED_TO))
            guard watch >= 0 else { return nil }
            parentWatch = watch
            // It may have appeared between the first try and the parent's watch.
            if watchDirectory() { stopWatchingParent() }
        }
    }

    /// IN_ATTRIB too: udev sets a node's permissions just after creating it.
    private func watchDirectory() -> Bool {
        inotify_add_watch(queue.fd, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) >= 0
    }

    private func stopWatchingParent() {
        if let parentWatch { inotify_rm_watch(queue.fd, parentWatch) }
        parentWatch = nil
    }

    /// Paths of `event*` nodes that appeared or changed since the last call.
    func changedNodes() -> [String] {
        var paths: [String] = []
        let name = HotplugWatcher.name(of: directory)
        for record in queue.drain() {
            if let parentWatch, record.watch == parentWatch {
                guard record.name == name, watchDirectory() else { continue }
                stopWatchingParent()
                for node in DeviceScanner.nodeNames(in: directory) where !paths.contains(directory + "/" + node) {
                    paths.append(directory + "/" + node)
                }
                continue
            }
            guard record.name.hasPrefix("event") else { continue }
            let path = directory + "/" + record.name
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
