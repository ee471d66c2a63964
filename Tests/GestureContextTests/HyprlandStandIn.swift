#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Speaks Hyprland's socket protocol (Hyprland is not in Debian): the event
/// socket .socket2.sock sends `EVENT>>DATA` lines to every listener; the
/// request socket .socket.sock answers `j/activewindow` and `j/clients` with
/// JSON and closes.
final class HyprlandStandIn: @unchecked Sendable {
    struct Window { var address: String; var cls: String; var title: String; var pid: Int }

    let runtimeDirectory: String
    let signature = "standin_\(UInt32.random(in: 1...UInt32.max))"
    private let lock = NSLock()
    private var windows: [Window] = []
    private var active: String?
    private var listeners: [Int32] = []
    private var servers: [Int32] = []
    private var stopped = false
    /// How long the request socket takes to answer: a compositor that is slow, or stuck.
    var answerDelay: Double {
        get { lock.lock(); defer { lock.unlock() }; return delay }
        set { lock.lock(); delay = newValue; lock.unlock() }
    }
    private var delay = 0.0

    init() throws {
        runtimeDirectory = try temporaryDirectory("hypr").path
        let dir = "\(runtimeDirectory)/hypr/\(signature)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let events = try listen(dir + "/.socket2.sock")
        let requests = try listen(dir + "/.socket.sock")
        servers = [events, requests]
        Thread.detachNewThread { self.acceptListeners(events) }
        Thread.detachNewThread { self.answerRequests(requests) }
    }

    private func listen(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        return fd
    }

    private func acceptListeners(_ server: Int32) {
        while true {
            let client = accept(server, nil, nil)
            if client < 0 { return }
            lock.lock()
            listeners.append(client)
            lock.unlock()
        }
    }

    private func answerRequests(_ server: Int32) {
        while true {
            let client = accept(server, nil, nil)
            if client < 0 { return }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = read(client, &buffer, buffer.count)
            let request = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
            if answerDelay > 0 { usleep(UInt32(answerDelay * 1e6)) }
            let answer = Array(respond(to: request).utf8)
            _ = answer.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        }
    }

    private func json(_ w: Window) -> String {
        "{\"address\":\"0x\(w.address)\",\"class\":\"\(w.cls)\",\"title\":\"\(w.title)\",\"pid\":\(w.pid),\"mapped\":true}"
    }

    private func respond(to request: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        switch request {
        case "j/activewindow":
            guard let active, let w = windows.first(where: { $0.address == active }) else { return "{}" }
            return json(w)
        case "j/clients":
            return "[" + windows.map(json).joined(separator: ",") + "]"
        default:
            return "unknown request"
        }
    }

    /// Waits until `count` clients listen on the event socket: a client's
    /// connect returns before this side has accepted it.
    func awaitListeners(_ count: Int = 1) {
        _ = waitFor(5) {
            self.lock.lock()
            defer { self.lock.unlock() }
            return self.listeners.count >= count
        }
    }

    private func broadcast(_ lines: [String]) {
        lock.lock()
        let text = Array(lines.map { $0 + "\n" }.joined().utf8)
        for fd in listeners { _ = text.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        lock.unlock()
    }

    func open(_ cls: String, title: String, pid: Int) -> String {
        let address = String(UInt64.random(in: 0x5500_0000_0000...0x56ff_ffff_ffff), radix: 16)
        lock.lock()
        windows.append(Window(address: address, cls: cls, title: title, pid: pid))
        lock.unlock()
        broadcast(["openwindow>>\(address),1,\(cls),\(title)"])
        return address
    }

    /// What Hyprland sends when focus moves: activewindow, then activewindowv2.
    func focus(_ address: String?) {
        lock.lock()
        active = address
        let w = windows.first { $0.address == address }
        lock.unlock()
        broadcast(["activewindow>>\(w?.cls ?? ""),\(w?.title ?? "")", "activewindowv2>>\(address ?? "")"])
    }

    func rename(_ address: String, to title: String) {
        lock.lock()
        if let i = windows.firstIndex(where: { $0.address == address }) { windows[i].title = title }
        lock.unlock()
        broadcast(["windowtitlev2>>\(address),\(title)"])
    }

    /// Sends raw bytes, as a compositor with a bug might.
    func send(raw: String) { broadcast([raw]) }

    /// Hyprland exiting: every socket closes.
    func stop() {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        stopped = true
        for fd in listeners { close(fd) }
        listeners.removeAll()
        let servers = self.servers
        lock.unlock()
        for fd in servers { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    deinit { stop() }
}
