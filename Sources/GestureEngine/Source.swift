import GestureCore
import GestureInput
import GestureSystem

/// One input of a run: a file, a pipe or FIFO, standard input, or a live device,
/// with the decoder that turns its bytes into frames.
final class Source {
    let name: String
    /// Where it lives, so an unplugged device can be opened again when it returns.
    let path: String?
    let index: Int
    var decoder: any TouchDecoder
    var announced = false
    /// What is open: a file, pipe, FIFO or standard input; a live device; or
    /// nothing any more (a device unplugged and waited for, or an input that ended).
    var handle: Handle

    enum Handle {
        case file(InputFile)
        case device(InputDevice)
        case unplugged
        case ended
    }

    init(name: String, path: String?, index: Int, opened handle: Handle, decoder: any TouchDecoder) {
        self.name = name
        self.path = path
        self.index = index
        self.decoder = decoder
        self.handle = handle
        if case .device = handle { isLiveDevice = true } else { isLiveDevice = false }
    }

    var file: InputFile? {
        if case .file(let file) = handle { return file }
        return nil
    }

    var device: InputDevice? {
        if case .device(let device) = handle { return device }
        return nil
    }

    var isOpen: Bool {
        switch handle {
        case .file, .device: return true
        case .unplugged, .ended: return false
        }
    }

    /// Reading it stopped: a live device is waited for, anything else has ended.
    func close() {
        handle = isLiveDevice ? .unplugged : .ended
    }

    var fd: Int32 { device?.fd ?? file?.fd ?? -1 }
    var isRegularFile: Bool { device == nil && file?.isRegularFile == true }
    /// A live device, open or unplugged and waited for: what it is does not
    /// change when it goes away (its `device` does).
    let isLiveDevice: Bool
}

/// What a run reads: its sources, and whether it looks for touch devices
/// that appear later (no input named, standard input no input).
struct Inputs {
    var sources: [Source]
    var discovering: Bool
    /// Watches the device directory (discovering, or a live device named).
    var watcher: HotplugWatcher?
}

extension Engine {
    /// The inputs named on the command line, standard input, or the touch
    /// devices found (none yet: the run waits for one).
    func openInputs() -> Result<Inputs, ExitCode> {
        var names = options.inputs
        var discovering = false
        var watcher: HotplugWatcher?
        // `serve` reads its pages, and only the inputs named besides.
        if names.isEmpty, options.serve == nil {
            let stdin = StandardInput.inspect()
            if options.verbose { console.note(stdin.choice) }
            if case .inputDevice(let path) = stdin {
                names = [path]
            } else if stdin.carriesEvents {
                names = ["-"]
            } else {
                discovering = true
                // Watching before the scan: a device plugged in between is not missed.
                watcher = HotplugWatcher(directory: DeviceScanner.directory)
                let scan = DeviceScanner.scan()
                for problem in scan.problems where options.verbose { console.note(problem.message) }
                if scan.touch.isEmpty {
                    // A person at a terminal is told at once. A service is not:
                    // it may start before logind gives the user at the seat
                    // the devices (the udev rule's uaccess), and the grant
                    // changes the nodes' attributes, which the watcher sees.
                    let denied = DeviceScanner.accessDenied(scan)
                    guard watcher != nil, !denied || stdin != .characterDevice("a terminal") else {
                        console.note(DeviceScanner.explainNone(scan))
                        return .failure(.unavailable)
                    }
                    console.note((denied ? DeviceScanner.explainWaitingForAccess(scan) : DeviceScanner.explainWaiting(scan)))
                }
                names = scan.touch
                if sharingMice {
                    if options.verbose, scan.mice.isEmpty { console.note("--share-mouse: no mouse in \(DeviceScanner.directory) yet") }
                    names += scan.mice
                }
            }
        }
        var sources: [Source] = []
        for (index, name) in names.enumerated() {
            switch openSource(name, index: index) {
            case .success(let source): sources.append(source)
            case .failure(let status): return .failure(status)
            }
        }
        if watcher == nil, sources.contains(where: \.isLiveDevice) {
            watcher = HotplugWatcher(directory: DeviceScanner.directory)
        }
        if sharing || sharingMice, !discovering, !sources.contains(where: \.isLiveDevice) {
            // Named as it was asked for: a rules file's config{} is no flag on the command line.
            let asked = options.deviceUse == .share ? "--share" : options.shareMice ? "--share-mouse"
                : sharing ? "config{ share = true }" : "config{ share_mice = true }"
            let what = sharing ? "live devices" : "live mice"
            console.note("\(asked) shares \(what) (/dev/input/event*), and no input here is one: nothing is shared")
        }
        return .success(Inputs(sources: sources, discovering: discovering, watcher: watcher))
    }

    func openSource(_ name: String, index: Int) -> Result<Source, ExitCode> {
        lanes.make(index).inputName = name
        let opened = openInput(name, index: index)
        if case .success(let source) = opened { noteSurface(index: index, name: name, device: source.device) }
        return opened
    }

    private func openInput(_ name: String, index: Int) -> Result<Source, ExitCode> {
        if name == "-" {
            let file = InputFile(standardInput: ())
            return .success(Source(name: file.name, path: nil, index: index, opened: .file(file), decoder: textDecoder(for: file.name, index: index)))
        }
        if InputFile.isCharacterDevice(name) {
            do {
                let device = try openDevice(name)
                let decoder = deviceDecoder(for: name, description: device.description, index: index, fd: device.fd)
                if options.verbose { console.note("reading \(name) (\(device.description.name.map(TerminalText.escaped) ?? "unnamed"), \(device.kindName))") }
                let source = Source(name: name, path: name, index: index, opened: .device(device), decoder: decoder)
                guard shareIfAsked(source) else { return .failure(.unavailable) }
                return .success(source)
            } catch {
                console.note(error.message)
                return .failure(.unavailable)
            }
        }
        do {
            let file = try InputFile(path: name)
            return .success(Source(name: name, path: name, index: index, opened: .file(file), decoder: textDecoder(for: name, index: index)))
        } catch {
            console.note("\(error.message)")
            return .failure(.noInput)
        }
    }

    func openDevice(_ path: String) throws(DeviceError) -> InputDevice {
        let device = try InputDevice(path: path)
        guard device.isTouch || (device.isMouse && sharingMice) else {
            if device.isMouse { throw DeviceError.notEvdev(path, "it is a mouse, which gesturemap reads only to share it: run --share-mouse") }
            if device.isKeyboard, sharingMice {
                throw DeviceError.failed(path, "it has a keyboard's keys, and gesturemap never takes a keyboard from the desktop; --share-mouse shares mice alone")
            }
            throw DeviceError.notEvdev(path, "it has no touch axes; gesturemap devices lists the touch devices")
        }
        // Without it, event times are wall-clock and deadlines would not line up.
        do { try device.useMonotonicClock() } catch {
            console.note("warning: \(error.message); long presses may fire late")
        }
        if (options.deviceUse == .grab && !device.isMouse) || shares(device) { try device.grab() }
        try device.beginReading()
        return device
    }

    /// The decoder of a live device, with every option the run was given: the
    /// same whether the device is opened at the start or again after an unplug.
    func deviceDecoder(for path: String, description: EvdevDescription, index: Int, fd: Int32 = -1) -> RawEventDecoder {
        var decoder = RawEventDecoder(source: path, resolution: options.resolution, size: options.size(for: path),
                                      transform: options.transform(for: path), device: index)
        decoder.describe(description, sizeHints: fd >= 0 ? options.sizeProbe.hints(fd: fd, description: description) : [])
        decoder.dropRecovery = .kernelState
        decoder.stopsAtFirstError = options.strict
        return decoder
    }

    private func textDecoder(for name: String, index: Int) -> AutoDecoder {
        var decoder = AutoDecoder(source: name, format: options.format, resolution: options.resolution, size: options.size(for: name),
                                  transform: options.transform(for: name), device: index)
        decoder.stopsAtFirstError = options.strict
        return decoder
    }
}
