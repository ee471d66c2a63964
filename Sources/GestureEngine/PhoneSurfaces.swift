#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GestureCore
import GestureInput
import GestureServe
import GestureSystem

/// `serve`'s pages as touch devices: each connected page gets a device index
/// of its own (after the command line's inputs, reused once its page is gone)
/// and an NDJSON decoder that its messages are fed to.
final class PhoneSurfaces {
    let server: PhoneServer
    /// Device indexes from here up are the pages'.
    let firstDevice: Int
    private var pages: [Int: Page] = [:]

    struct Page {
        var device: Int
        var decoder: NDJSONDecoder
    }

    init(server: PhoneServer, firstDevice: Int) {
        self.server = server
        self.firstDevice = firstDevice
    }

    /// The connection whose page is device `device`, if one is.
    func connection(of device: Int) -> Int? {
        pages.first { $0.value.device == device }?.key
    }

    /// A device index for a new page: the lowest no page has now.
    func openPage(_ id: Int, decoder make: (Int) -> NDJSONDecoder) -> Int {
        let used = Set(pages.values.map(\.device))
        let device = (firstDevice...).first { !used.contains($0) } ?? firstDevice
        pages[id] = Page(device: device, decoder: make(device))
        return device
    }

    func feed(_ id: Int, _ bytes: [UInt8], emit: (TouchFrame) -> Void) -> [Diagnostic] {
        guard var page = pages[id] else { return [] }
        bytes.withUnsafeBytes { page.decoder.feed($0, emit: emit) }
        // A message is a whole frame: it is closed now, not when the next comes.
        page.decoder.flush(emit: emit)
        let diagnostics = page.decoder.diagnostics
        page.decoder.diagnostics.removeAll()
        pages[id] = page
        return diagnostics
    }

    /// The page went away: touches still down are cancelled.
    func closePage(_ id: Int, emit: (TouchFrame) -> Void) -> Int? {
        guard var page = pages.removeValue(forKey: id) else { return nil }
        page.decoder.finish(emit: emit)
        return page.device
    }
}

extension Engine {
    /// Starts `serve`'s server and says where the phone should go; an exit
    /// status when it cannot.
    func startPhones(firstDevice: Int) -> ExitCode? {
        guard let settings = options.serve else { return nil }
        let chosen: ListenChoice.Chosen
        switch ListenChoice.choose(settings.listen, lan: LANInterfaces.privateAddresses(port: ListenAddress.defaultPort)) {
        case .success(let c): chosen = c
        case .failure(let error):
            console.say("gesturemap: " + error.message)
            return .unavailable
        }
        guard let token = PairingToken.random() else {
            console.say("gesturemap: cannot read /dev/urandom for the pairing token; serve needs the kernel's random numbers")
            return .unavailable
        }
        let server: PhoneServer
        do { server = try PhoneServer(settings: settings, address: chosen.address, token: token) } catch {
            console.say("gesturemap: " + error.message)
            return .unavailable
        }
        phones = PhoneSurfaces(server: server, firstDevice: firstDevice)
        console.say("gesturemap: serving the touch page on \(server.address), \(chosen.note); open on the phone:")
        console.say("  \(server.url)")
        switch QRCode.terminalLines(for: server.url) {
        case .lines(let lines) where console.capture == nil && isatty(console.fd) == 1:
            for line in lines { console.say(line) }
        case .lines:
            break
        case .unavailable(let why):
            console.say("gesturemap: no QR code: \(why); type the URL instead")
        }
        return nil
    }

    func addPhones(to set: inout PollSet<LoopToken>) {
        guard let phones else { return }
        for d in phones.server.descriptors { set.add(d.fd, .phone(d.fd), events: d.events) }
    }

    /// How long the pages let the loop sleep, in ms (-1: until input).
    func phoneTimeout(now: Double) -> Int32 {
        guard let due = phones?.server.timeout(now: now) else { return -1 }
        return PollTimeout.milliseconds(due)
    }

    func servePhones(ready: [LoopToken]) {
        guard let phones else { return }
        var fds = Set<Int32>()
        for case .phone(let fd) in ready { fds.insert(fd) }
        for event in phones.server.serve(ready: fds, now: MonotonicClock.now()) where fatal == nil {
            switch event {
            case let .connected(id, name):
                let device = phones.openPage(id) { device in
                    NDJSONDecoder(source: name, resolution: options.resolution, transform: options.transform(for: name), device: device, directory: devices)
                }
                inputNames[device] = name
                console.say("gesturemap: \(name) connected")
            case let .input(id, ndjson):
                for d in phones.feed(id, ndjson, emit: { process($0) }) { console.say(d.description) }
            case let .disconnected(id, reason):
                if let reason { console.say("gesturemap: " + reason) }
                if let device = phones.closePage(id, emit: { process($0) }) {
                    finish(device: device)
                    // Its recognizers go with it: the next page on this index starts afresh.
                    if arenas.indices.contains(device) { arenas[device] = nil }
                    console.say("gesturemap: \(inputNames[device] ?? "a phone") went away")
                }
            case .note(let text):
                console.say("gesturemap: " + text)
            }
        }
    }

    /// The gesture's name on the page it came from, so its user sees it worked.
    func showOnPhone(_ event: GestureEvent) {
        guard let phones, event.isFirstOfGesture, let id = phones.connection(of: event.device) else { return }
        phones.server.show(gesture: event.spokenName, on: id)
    }
}

extension GestureEvent {
    /// "two-finger swipe left", "double tap", "long press": how a rule's phrase says it.
    var spokenName: String {
        var words: [String] = []
        let numbers = ["", "", "two", "three", "four", "five"]
        if fingers > 1 { words.append((fingers < numbers.count ? numbers[fingers] : "\(fingers)") + "-finger") }
        if kind == .tap, taps == 2 { words.append("double") }
        if kind == .tap, taps == 3 { words.append("triple") }
        words.append(name ?? kind.phrase)
        if let edge { words.append("from \(edge.rawValue)") } else if let direction { words.append(direction.rawValue) }
        return words.joined(separator: " ")
    }
}
