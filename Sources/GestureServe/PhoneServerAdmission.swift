import Glibc
import CServeTLS

/// Who gets in: the listener is accepted from on every turn, a newcomer is
/// read at once, and when the heads in progress fill their slots a stranger
/// gives way (HeadSlots). TLS hellos wait for their turn (HandshakeTurns).
extension PhoneServer {
    func accept(now: Double, into events: inout [PhoneEvent]) {
        // A bounded number a turn: a flood of connections cannot keep the loop here.
        for _ in 0..<settings.maxPendingRequests {
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            guard fd >= 0 else {
                let code = errno
                switch code {
                case EAGAIN, EWOULDBLOCK:
                    return
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // A stranger's head gives its descriptor to whoever waits behind it.
                    if let victim = slots.victim(among: heads) {
                        displace(victim, now: now, for: "to free a descriptor for a newer one (the process may open no more)", into: &events)
                        continue
                    }
                    return rest(now: now, code: code, into: &events)
                default:
                    return rest(now: now, code: code, into: &events)
                }
            }
            // Non-blocking, and closed in the programs the rules start, as the listener is.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let address = Self.address(peer)
            let served = ServedAddress(address: Self.localAddress(of: fd) ?? self.address, tls: tlsContext != nil)
            switch slots.place(Self.number(address), among: heads) {
            case .room: break
            case .evict(let id):
                displace(id, now: now, for: "to make room for a newer one"
                    + " (\(settings.maxPendingRequests) requests at once, \(settings.maxPendingFromOnePeer) from one address)", into: &events)
            case .refuse:
                close(fd)
                continue
            }
            var tls: UnsafeMutableRawPointer?
            if let tlsContext {
                tls = gm_tls_session_new(tlsContext, fd)
                if tls == nil {
                    close(fd)
                    continue
                }
            }
            nextID += 1
            let connection = PhoneConnection(fd: fd, id: nextID, peer: address, served: served, now: now, deadline: now + settings.requestTimeout)
            connection.tls = tls
            connections.append(connection)
            // Its head (or TLS hello) is usually here already: read it before anyone else may come.
            receive(connection, now: now, into: &events)
        }
    }

    /// The connections still sending their heads, as `HeadSlots` sees them.
    var heads: [HeadSlots.Head] {
        connections.filter { $0.fd >= 0 && $0.isRequest }.map(\.head)
    }

    /// Closes a head to make room, saying so for the first few.
    private func displace(_ id: Int, now: Double, for reason: String, into events: inout [PhoneEvent]) {
        guard let c = connections.first(where: { $0.id == id }) else { return }
        say(.displaced, "dropped a connection from \(c.peer) that showed no token in \(Self.seconds(now - c.since)), \(reason)", into: &events)
        shut(c)
    }

    /// accept() failed for a reason waiting mends (descriptors, memory): the
    /// listener rests a while instead of waking the loop at once, over and over.
    private func rest(now: Double, code: Int32, into events: inout [PhoneEvent]) {
        listenerRestsUntil = now + settings.acceptPause
        guard !acceptFailureReported else { return }
        acceptFailureReported = true
        events.append(.note(Self.acceptFailure(code: code, pause: settings.acceptPause)))
    }

    static func acceptFailure(code: Int32, pause: Double) -> String {
        let why: String
        switch code {
        case EMFILE:
            var limit = rlimit()
            let most = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? "\(limit.rlim_cur)" : "no more"
            why = " (this process may have \(most) open: raise the limit with ulimit -n, or serve fewer pages)"
        case ENFILE:
            why = " (the whole system's limit, sysctl fs.file-max, is reached)"
        default:
            why = ""
        }
        return "cannot accept a connection: \(String(cString: strerror(code)))\(why);"
            + " new connections wait, tried again every \(pause) s (said once)"
    }

    /// Gives one TLS hello its turn, if one waits and the rate allows: its
    /// handshake's costly part runs now, and is the only one this turn.
    func giveTurn(now: Double, into events: inout [PhoneEvent]) {
        guard turns != nil else { return }
        let waiting = connections.filter { $0.fd >= 0 && $0.waitsForTurn }
            .map { HandshakeTurns.Waiting(id: $0.id, peer: $0.peerAddress, since: $0.since) }
        guard !waiting.isEmpty else { return }
        let present = Set(connections.filter { $0.fd >= 0 }.map(\.peerAddress))
        guard let id = turns?.next(among: waiting, present: present, now: now),
              let c = connections.first(where: { $0.id == id }) else { return }
        c.takeTurn()
        receive(c, now: now, into: &events)
    }

    // MARK: Addresses

    static func address(_ sin: sockaddr_in) -> ListenAddress {
        let value = UInt32(bigEndian: sin.sin_addr.s_addr)
        let octets = [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
        return ListenAddress(octets: octets, port: UInt16(bigEndian: sin.sin_port))
    }

    static func number(_ address: ListenAddress) -> UInt32 {
        address.octets.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The address a connection reached: the listener's, or, listening on
    /// 0.0.0.0, the interface's.
    static func localAddress(of fd: Int32) -> ListenAddress? {
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let got = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return got == 0 ? address(local) : nil
    }
}
