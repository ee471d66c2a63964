import Glibc
import GestureCore
import GestureInput
import GestureServe
import GestureSystem

/// `serve`'s server in the loop: its sockets, its timeouts, and each page's
/// messages to the engine as the frames of that page's device.
final class PhoneSource: LoopSource {
    private unowned let engine: Engine
    let surfaces: PhoneSurfaces

    /// Frames straight to the engine (a page is never paced); names to its lanes.
    private let output: DecoderOutput

    init(engine: Engine, surfaces: PhoneSurfaces) {
        self.engine = engine
        self.surfaces = surfaces
        output = DecoderOutput(frame: { [unowned engine] in engine.process($0) },
                               deviceNamed: { [unowned engine] in engine.lanes.make($0).deviceName = $1 })
    }

    /// A server waits for pages as long as it runs.
    var keepsLoopRunning: Bool { true }

    func descriptors(into list: inout [PollRequest]) {
        for d in surfaces.server.descriptors { list.append(PollRequest(fd: d.fd, events: d.events)) }
    }

    func deadline(now: Double) -> Double? {
        surfaces.server.timeout(now: now).map { now + $0 }
    }

    func serve(_ round: LoopRound) {
        let fds = Set(round.ready.map(\.fd))
        for event in surfaces.server.serve(ready: fds, now: MonotonicClock.now()) where !engine.isOver {
            switch event {
            case let .connected(id, name):
                let device = surfaces.openPage(id) { [engine] device in
                    NDJSONDecoder(source: name, resolution: engine.options.resolution, transform: engine.options.transform(for: name),
                                  device: device)
                }
                engine.lanes.make(device).inputName = name
                engine.console.note("\(name) connected")
            case let .input(id, records):
                for d in surfaces.take(id, records, into: output) { engine.console.say(d.description) }
            case let .disconnected(id, reason):
                if let reason { engine.console.note(reason) }
                if let device = surfaces.closePage(id, into: output) {
                    engine.finish(device: device)
                    // Its recognizers go with it: the next page on this index starts afresh.
                    engine.forget(device: device)
                    engine.console.note("\(engine.lanes.lane(device)?.inputName ?? "a phone") went away")
                }
            case .note(let text):
                engine.console.note(text)
            }
        }
    }

    /// The gesture's name on the page it came from, so its user sees it worked.
    func show(_ event: GestureEvent) {
        guard let id = surfaces.connection(of: event.device) else { return }
        surfaces.server.show(gesture: event.spokenName, on: id)
    }
}

extension Session {
    /// Starts `serve`'s server and says where the phone should go; an exit
    /// status when it cannot.
    func startPhones(firstDevice: Int) -> ExitCode? {
        guard let settings = engine.options.serve else { return nil }
        let console = engine.console
        let chosen: ListenChoice.Chosen
        switch ListenChoice.choose(settings.listen, lan: LANInterfaces.privateAddresses(port: ListenAddress.defaultPort)) {
        case .success(let c): chosen = c
        case .failure(let error):
            console.note(error.message)
            return .unavailable
        }
        guard let token = PairingToken.random() else {
            console.note("cannot read /dev/urandom for the pairing token; serve needs the kernel's random numbers")
            return .unavailable
        }
        let server: PhoneServer
        do { server = try PhoneServer(settings: settings, address: chosen.address, token: token) } catch {
            console.note(error.message)
            return .unavailable
        }
        let source = PhoneSource(engine: engine, surfaces: PhoneSurfaces(server: server, firstDevice: firstDevice))
        phones = source
        engine.state.watchers.showGesture = { [unowned source] in source.show($0) }
        console.note("serving the touch page on \(server.address), \(chosen.note); open on the phone:")
        console.say("  \(server.url)")
        switch QRCode.terminalLines(for: server.url) {
        case .lines(let lines) where console.capture == nil && isatty(console.fd) == 1:
            for line in lines { console.say(line) }
        case .lines:
            break
        case .unavailable(let why):
            console.note("no QR code: \(why); type the URL instead")
        }
        return nil
    }
}
