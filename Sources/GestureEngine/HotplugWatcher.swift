#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches the input device directory with inotify, so devices that appear (or
/// come back after an unplug) are picked up without a restart.
final class HotplugWatcher {
    let directory: String
    private let queue: InotifyQueue
    var fd: Int32 { queue.fd }

    init?(directory: String) {
        guard let queue = InotifyQueue() else { return nil }
        // IN_ATTRIB too: udev sets a node's permissions just after creating it.
        guard inotify_add_watch(queue.fd, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) >= 0 else { return nil }
        self.directory = directory
        self.queue = queue
    }

    /// Paths of `event*` nodes that appeared or changed since the last call.
    func changedNodes() -> [String] {
        var paths: [String] = []
        for record in queue.drain() where record.name.hasPrefix("event") {
            let path = directory + "/" + record.name
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }
}
