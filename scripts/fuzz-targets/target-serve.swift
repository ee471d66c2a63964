// Fuzz target: what a client on the LAN sends `serve` (GestureServe's
// parsers), without sockets. The first byte picks the mode: an HTTP request
// head, or a stream of WebSocket frames whose text payloads are page messages
// for a PageSession. Invariants: a head parses the same however much of it
// came first; frames are never longer than the cap; a session never holds more
// than its touches; and every NDJSON line a session writes reads back through
// the engine's own decoder without one malformed line.
import GestureCore
import GestureInput
@testable import GestureServe

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: data, count: size))
    let mode = input.byte()
    let bytes = Array(input.rest)
    if mode & 1 == 0 {
        let whole = HTTPRequest.parse(bytes[...])
        // A prefix is incomplete, or already the same answer (the head ended, or was refused, within it).
        let cut = Int(mode >> 1) % (bytes.count + 1)
        switch HTTPRequest.parse(bytes[0..<cut]) {
        case .incomplete: break
        case .invalid(let message):
            if case .invalid(let again) = whole, again == message { break }
            if case .invalid = whole { break }
            fatalError("a prefix of \(cut) bytes is invalid (\(message)) but the whole is \(whole)")
        case .request(let request, let length):
            guard case .request(request, length) = whole else { fatalError("a prefix gave \(request), the whole \(whole)") }
        }
        return 0
    }
    let maxPayload = 4096
    var session = PageSession(deviceName: "phone fuzz")
    var decoder = NDJSONDecoder(source: "fuzz", device: 0)
    var offset = 0
    var arrival = 1.0
    while offset < bytes.count {
        switch WebSocketFrame.parse(bytes[offset...], maxPayload: maxPayload) {
        case .incomplete, .invalid:
            offset = bytes.count
        case let .frame(opcode, payload, length):
            guard length > 0, payload.count <= maxPayload else { fatalError("a frame of \(length) bytes, payload \(payload.count)") }
            offset += length
            arrival += 0.01
            guard opcode == .text else { continue }
            let lines = PageMessage.parse(String(decoding: payload, as: UTF8.self)).flatMap { session.lines(for: $0, arrival: arrival) }
            if case .success(let ndjson) = lines {
                ndjson.withUnsafeBytes { decoder.feed($0) { _ in } }
                decoder.flush { _ in }
            }
            if session.touchesDown > PageSession.maxTouchesDown { fatalError("\(session.touchesDown) touches down") }
        }
    }
    decoder.finish { _ in }
    if decoder.errorCount > 0 { fatalError("the session wrote NDJSON the decoder refused: \(decoder.diagnostics)") }
    return 0
}
