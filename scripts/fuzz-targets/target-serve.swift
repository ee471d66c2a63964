// Fuzz target: what a client on the LAN sends `serve` (GestureServe's
// parsers and admission rules), without sockets. The first byte picks the
// mode: an HTTP request head; a stream of WebSocket frames whose text
// payloads are page messages for a PageSession; or a crowd arriving, showing
// the token, leaving and asking for TLS turns. Invariants: a head parses the
// same however much of it came first, and its request line gives the query
// the whole head does; Host and Origin checks pass the served address and
// say nothing unprintable; frames are never longer than the cap; a session
// never holds more than its touches, times every message within 2 s behind
// its arrival and never ahead, and every NDJSON line it writes reads back
// through the engine's own decoder without one malformed line; HeadSlots
// never displaces a head that showed the token, nor lets an address hold more
// than its cap; HandshakeTurns gives at most one turn per 1/rate s, to the
// waiting address that had one least recently.
import GestureCore
import GestureInput
@testable import GestureServe

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let mode = input.byte()
    if mode & 3 == 3 {
        admission(&input)
        return 0
    }
    let bytes = Array(input.rest)
    if mode & 1 == 0 {
        head(bytes, cut: Int(mode >> 1))
    } else {
        frames(bytes)
    }
    return 0
}

private func head(_ bytes: [UInt8], cut: Int) {
    let whole = HTTPRequest.parse(bytes[...])
    // A prefix is incomplete, or already the same answer (the head ended, or was refused, within it).
    let cut = cut % (bytes.count + 1)
    switch HTTPRequest.parse(bytes[0..<cut]) {
    case .incomplete: break
    case .invalid(let message):
        if case .invalid(let again) = whole, again == message { break }
        if case .invalid = whole { break }
        fatalError("a prefix of \(cut) bytes is invalid (\(message)) but the whole is \(whole)")
    case .request(let request, let length):
        guard case .request(request, length) = whole else { fatalError("a prefix gave \(request), the whole \(whole)") }
    }
    guard case .request(let request, _) = whole else { return }
    // What proves a connection before its head is whole is what the whole head says.
    guard HTTPRequest.requestLineQuery(bytes[...]) == request.query else {
        fatalError("the request line's query \(String(describing: HTTPRequest.requestLineQuery(bytes[...]))) is not the head's \(request.query)")
    }
    let served = ServedAddress(address: ListenAddress(octets: [192, 168, 1, 23], port: 8023), tls: cut & 1 == 1)
    guard served.hostProblem(served.address.description) == nil, served.originProblem(served.origin) == nil else {
        fatalError("the served address itself is refused")
    }
    for problem in [served.hostProblem(request.headers["host"]), served.originProblem(request.headers["origin"])].compactMap({ $0 }) {
        if problem.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
            fatalError("a refusal carries a control character to the terminal: \(problem.debugDescription)")
        }
    }
}

private func frames(_ bytes: [UInt8]) {
    let maxPayload = 4096
    var session = PageSession(deviceName: "phone fuzz")
    var decoder = NDJSONDecoder(source: "fuzz", device: 0)
    var offset = 0
    var arrival = 1.0
    var last = -Double.infinity
    while offset < bytes.count {
        switch WebSocketFrame.parse(bytes[offset...], maxPayload: maxPayload) {
        case .incomplete, .invalid:
            offset = bytes.count
        case let .frame(opcode, payload, length):
            guard length > 0, payload.count <= maxPayload else { fatalError("a frame of \(length) bytes, payload \(payload.count)") }
            offset += length
            // Arrivals a hundredth of a second apart, and now and then a pause of seconds.
            arrival += payload.first.map { $0 == 0x20 ? 3 : 0.01 } ?? 0.01
            guard opcode == .text else { continue }
            let records = PageMessage.parse(String(decoding: payload, as: UTF8.self)).flatMap { session.records(for: $0, arrival: arrival) }
            if case .success(let records) = records {
                decoder.take(records, into: .framesOnly { frame in check(frame.time, arrival: arrival, after: &last) })
                decoder.flush { check($0.time, arrival: arrival, after: &last) }
            }
            if session.touchesDown > PageSession.maxTouchesDown { fatalError("\(session.touchesDown) touches down") }
        }
    }
    decoder.finish { _ in }
    if decoder.errorCount > 0 { fatalError("the session made records the decoder refused: \(decoder.diagnostics)") }
}

/// A message's time: within the jump limit behind its arrival, never ahead, never before the last.
private func check(_ time: Double, arrival: Double, after last: inout Double) {
    let slack = 1e-3
    guard time <= arrival + slack, time >= arrival - PageSession.clockJumpLimit - slack, time >= last - slack else {
        fatalError("a page's time \(time) for a message that arrived at \(arrival) (the last was \(last))")
    }
    last = max(last, time)
}

private func admission(_ input: inout FuzzBytes) {
    let slots = HeadSlots(total: 6, perPeer: 2)
    let rate = 10.0
    var turns = HandshakeTurns(rate: rate, now: 0)
    var heads: [HeadSlots.Head] = []
    var hellos: Set<Int> = []
    var lastTurn: [UInt32: Double] = [:]
    var lastGiven = -Double.infinity
    var now = 0.0
    var next = 0
    while !input.isAtEnd {
        let op = input.byte()
        let arg = input.byte()
        switch op & 3 {
        case 0:
            let peer = UInt32(arg % 5)
            let unproven = heads.filter { !$0.proven && $0.peer == peer }.count
            let newcomer = HeadSlots.Head(id: next, peer: peer, since: now, proven: false)
            next += 1
            switch slots.place(peer, among: heads) {
            case .room:
                guard heads.count < slots.total, unproven < slots.perPeer else { fatalError("room with \(heads.count) heads, \(unproven) of the newcomer's") }
                heads.append(newcomer)
            case .evict(let id):
                guard let victim = heads.first(where: { $0.id == id }) else { fatalError("evicted \(id), who is not there") }
                guard !victim.proven else { fatalError("evicted a head that showed the token") }
                if unproven < slots.perPeer {
                    var counts: [UInt32: Int] = [:]
                    for h in heads where !h.proven { counts[h.peer, default: 0] += 1 }
                    guard counts[victim.peer] == counts.values.max() else { fatalError("evicted from an address that holds fewer than another") }
                } else if victim.peer != peer {
                    fatalError("an address at its cap displaced another's head")
                }
                heads.removeAll { $0.id == id }
                hellos.remove(id)
                heads.append(newcomer)
            case .refuse:
                guard heads.allSatisfy(\.proven) else { fatalError("refused while a stranger's head held a slot") }
            }
            if arg & 0x80 != 0 { hellos.insert(newcomer.id) }
        case 1:
            if !heads.isEmpty { heads[Int(arg) % heads.count].proven = true }
        case 2:
            if !heads.isEmpty { hellos.remove(heads.remove(at: Int(arg) % heads.count).id) }
        default:
            now += Double(arg) / 500
            let waiting = heads.filter { hellos.contains($0.id) }.map { HandshakeTurns.Waiting(id: $0.id, peer: $0.peer, since: $0.since) }
            lastTurn = lastTurn.filter { peer in heads.contains { $0.peer == peer.key } }
            guard let id = turns.next(among: waiting, present: Set(heads.map(\.peer)), now: now) else { break }
            guard now - lastGiven >= 1 / rate - 1e-9 else { fatalError("two turns \(now - lastGiven) s apart") }
            guard let chosen = waiting.first(where: { $0.id == id }) else { fatalError("a turn for \(id), who does not wait") }
            let mine = lastTurn[chosen.peer] ?? -.infinity
            if waiting.contains(where: { (lastTurn[$0.peer] ?? -.infinity) < mine }) { fatalError("a turn for an address that had one more recently") }
            lastTurn[chosen.peer] = now
            lastGiven = now
            hellos.remove(id)
        }
        guard heads.count <= slots.total else { fatalError("\(heads.count) heads") }
        var counts: [UInt32: Int] = [:]
        for h in heads where !h.proven { counts[h.peer, default: 0] += 1 }
        if let most = counts.values.max(), most > slots.perPeer { fatalError("an address holds \(most) heads") }
    }
}
