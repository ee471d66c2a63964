import GestureCore
import Glibc
import GestureSystem

/// Hyprland: focus changes from its event socket (`activewindow>>CLASS,TITLE`
/// lines), the first value and the pid from its request socket (`j/activewindow`),
/// asked without waiting: the answer is one more descriptor in the loop's poll.
final class HyprlandBackend: AppBackend {
    let eventsPath: String
    let requestsPath: String
    private let events: UnixSocket
    private var focus = HyprlandFocus()
    /// The one `j/activewindow` in flight.
    private var asking: PeerRequest?
    private var notices: [String] = []
    private var saidSlow = false
    /// Its request socket has given a JSON answer.
    private(set) var hasAnswered = false
    static let answerTimeout = 2.0

    var current: AppInfo? { focus.current }
    var fd: Int32 { events.fd }
    var descriptors: [Int32] { [events.fd] + (asking.map { [$0.fd] } ?? []) }
    var deadline: Double? { asking?.deadline }

    /// The instance's folder: $XDG_RUNTIME_DIR/hypr/SIG (Hyprland 0.40 on), else /tmp/hypr/SIG.
    static func directory(signature: String, runtimeDirectory: String?) -> String {
        if let runtime = runtimeDirectory {
            let candidate = "\(runtime)/hypr/\(signature)"
            if access(candidate + "/.socket2.sock", F_OK) == 0 { return candidate }
        }
        return "/tmp/hypr/\(signature)"
    }

    init(signature: String, runtimeDirectory: String?) throws(AppSourceLost) {
        let dir = HyprlandBackend.directory(signature: signature, runtimeDirectory: runtimeDirectory)
        eventsPath = dir + "/.socket2.sock"
        requestsPath = dir + "/.socket.sock"
        events = try UnixSocket(path: eventsPath)
        _ = follow(focus.start())
    }

    func handleReadable() throws(AppSourceLost) -> Bool {
        var changed = readAnswer()
        guard let chunk = try events.receive() else { return changed }
        if chunk.isEmpty { throw AppSourceLost("\(eventsPath) closed (Hyprland exited?)") }
        changed = follow(focus.feed(chunk)) || changed
        return changed
    }

    /// An answer overdue: dropped, said once, and the events go on alone.
    func tick(now: Double) throws(AppSourceLost) -> Bool {
        guard let request = asking, now >= request.deadline else { return false }
        asking = nil
        saySlow("\(requestsPath) did not answer \(request.command) within \(Int(HyprlandBackend.answerTimeout)) s")
        return follow(focus.answered(nil))
    }

    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    private func saySlow(_ what: String) {
        guard !saidSlow else { return }
        notices.append(what + "; going on without pids")
        saidSlow = true
    }

    /// Sends the request a step asks for; true when the step changed the focus.
    private func follow(_ step: HyprlandFocus.Step) -> Bool {
        var changed = step.changed
        var ask = step.ask
        while ask {
            ask = false
            do {
                asking = try PeerRequest("j/activewindow", to: requestsPath, now: MonotonicClock.now(), timeout: HyprlandBackend.answerTimeout)
            } catch {
                saySlow(error.message)
                let next = focus.answered(nil)
                changed = changed || next.changed
                ask = next.ask
            }
        }
        return changed
    }

    private func readAnswer() -> Bool {
        guard let request = asking else { return false }
        let bytes: [UInt8]?
        do { bytes = try request.read() } catch {
            asking = nil
            notices.append(error.message)
            return follow(focus.answered(nil))
        }
        guard let bytes else { return false }
        asking = nil
        let reply = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self))
        if reply == nil { notices.append("\(requestsPath): the answer to \(request.command) is not JSON") }
        hasAnswered = hasAnswered || reply != nil
        return follow(focus.answered(reply))
    }

    func windows() -> [WindowInfo] {
        guard let reply = try? request("j/clients"), let clients = reply.array else { return [] }
        return clients.map { client in
            let app = HyprlandFocus.app(client)
            let focused = focus.address != nil && HyprlandFocus.bare(client["address"]?.string ?? "") == focus.address
            return WindowInfo(app: app, focused: focused)
        }
    }

    func close() {}

    /// Waits for the answer: for `gesturemap apps`, never inside the loop.
    private func request(_ command: String) throws(AppSourceLost) -> JSONValue {
        let socket = try UnixSocket(path: requestsPath)
        try socket.send(Array(command.utf8))
        let answer = try socket.receiveAll(timeout: 2)
        do {
            return try JSONValue.parse(String(decoding: answer, as: UTF8.self))
        } catch {
            throw AppSourceLost("\(requestsPath): the answer to \(command) is not JSON")
        }
    }
}
