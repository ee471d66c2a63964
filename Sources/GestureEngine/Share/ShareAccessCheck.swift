import Glibc
import GestureActions
import GestureInput
import GestureSystem

/// The live devices a run is about to read, as far as can be told before it
/// opens them: what `--share` would make clones of.
enum LiveDevicesToRead: Equatable {
    /// Named on the command line, or standard input is one.
    case named([String])
    /// None named: the touch devices found in the device directory, now or later.
    case discovered
}

extension Engine {
    /// `--share` makes the desktop's clones through uinput. A run that would
    /// share live devices without it says so at once, before it opens or waits
    /// for any device, naming the device nodes this user may not read as well,
    /// since the same udev rule gives both: exit 69. Nil when sharing can go on.
    func shareAccessProblem() -> ExitCode? {
        guard sharing || sharingMice, let devices = liveDevicesToRead() else { return nil }
        let uinput = UinputDevice.path
        let copies: String
        switch devices {
        case .named(let nodes): copies = nodes.joined(separator: " and ")
        case .discovered: copies = sharing && sharingMice ? "each touch device and mouse" : sharing ? "each touch device" : "each mouse"
        }
        guard let problem = UinputAccessError.probe(uinput, for: .share(device: copies)) else { return nil }
        var message = "gesturemap: " + problem.message
        if let call = runtime.firstCall(ofGlobal: "key") {
            message += "; \(call.file):\(call.line) calls key(), which needs \(uinput) too"
        }
        console.say(message)
        let unreadable = Self.unreadable(devices)
        if let first = unreadable.first {
            let user = SystemUser.name(environment: ProcessEnvironment.current)
            let others = unreadable.count - 1
            console.note("--share reads each device it shares, and this user (\(user)) may not read \(first)"
                + (others > 0 ? " nor \(others) other input device\(others == 1 ? "" : "s") there" : "")
                + ": the udev rule 70-gesturemap.rules gives the touch devices, and \(uinput), to the user logged in at the seat; a kiosk with no one at the seat runs gesturemap as the gesturemap user (User=gesturemap in its system service), which the rule gives both")
        }
        return .unavailable
    }

    /// The live devices this run will read; nil when it reads only files,
    /// pipes or standard input's events, which nothing shares.
    func liveDevicesToRead() -> LiveDevicesToRead? {
        if !options.inputs.isEmpty {
            let nodes = options.inputs.filter { $0 != "-" && InputFile.isCharacterDevice($0) }
            return nodes.isEmpty ? nil : .named(nodes)
        }
        guard options.serve == nil else { return nil }
        let stdin = StandardInput.inspect()
        if case .inputDevice(let path) = stdin { return .named([path]) }
        return stdin.carriesEvents ? nil : .discovered
    }

    /// The nodes among them this user may not read.
    static func unreadable(_ devices: LiveDevicesToRead) -> [String] {
        switch devices {
        case .named(let nodes):
            return nodes.filter { access($0, R_OK) != 0 }
        case .discovered:
            return DeviceScanner.scan().problems.compactMap { problem in
                if case .permissionDenied(let path) = problem { return path }
                return nil
            }
        }
    }
}
