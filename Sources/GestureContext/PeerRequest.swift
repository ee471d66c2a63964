/// One request on a socket the peer answers and then closes (Hyprland's
/// request socket): sent at once, its answer gathered as it arrives, by the
/// loop's poll, never waited for.
final class PeerRequest {
    let command: String
    let deadline: Double
    private let socket: UnixSocket
    private var answer: [UInt8] = []
    /// More than any answer about windows: a peer past it is misbehaving.
    static let largestAnswer = 4 << 20

    var fd: Int32 { socket.fd }

    init(_ command: String, to path: String, now: Double, timeout: Double) throws(AppSourceLost) {
        self.command = command
        deadline = now + timeout
        socket = try UnixSocket(path: path)
        try socket.send(Array(command.utf8))
    }

    /// What has arrived: the whole answer once the peer closed, nil until then.
    func read() throws(AppSourceLost) -> [UInt8]? {
        guard let chunk = try socket.receive() else { return nil }
        if chunk.isEmpty { return answer }
        answer += chunk
        guard answer.count <= PeerRequest.largestAnswer else {
            throw AppSourceLost("\(socket.path): the answer to \(command) is over \(PeerRequest.largestAnswer >> 20) MB")
        }
        return nil
    }
}
