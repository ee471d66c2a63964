import Glibc
import GestureCore
import GestureInput
import GestureSystem

/// One run of an engine: its inputs opened, then replayed as fast as the
/// files allow, or served live by the loop with everything else the run
/// listens to (the focused application, keyboards, reloads, children,
/// stdout's reader, phones, devices plugged in). Every frame reaches the
/// engine through `frame(_:)`, which keeps `--realtime`'s pace.
final class Session {
    let engine: Engine
    let loop = EventLoop()
    private(set) var inputs: [InputSource] = []
    /// The focused application, always served (its rules' matching runs without a source too).
    private(set) var appFocus: AppFocusSource
    var phones: PhoneSource?
    /// `--realtime`: the replay's clock against the wall's.
    private(set) var pacer: Pacer?
    private var hotplug: HotplugSource?
    /// Where the live loop reads into.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    private init(engine: Engine, appFocus: AppFocusSource) {
        self.engine = engine
        self.appFocus = appFocus
        loop.shouldStop = { [unowned engine] in engine.isOver }
    }

    deinit {
        buffer.deallocate()
    }

    static func run(_ engine: Engine) -> ExitCode {
        let opened: Inputs
        switch engine.openInputs() {
        case .success(let inputs): opened = inputs
        case .failure(let status): return status
        }
        if let status = engine.startKeyboards(live: opened.discovering || opened.sources.contains(where: \.isLiveDevice)) { return status }
        let session = Session(engine: engine, appFocus: AppFocusSource(engine: engine, tracker: engine.startAppFocus()))
        defer { session.appFocus.close() }
        if let status = session.startPhones(firstDevice: opened.sources.count) { return status }
        let replays = session.phones == nil && !opened.discovering && opened.sources.allSatisfy(\.isRegularFile)
            && engine.lanes.keyboards?.waitsForInput != true
        guard replays else { return session.runLoop(opened) }
        if engine.options.realtime { session.startPacing() }
        // Paced, the replay waits between frames: each line goes out as it comes.
        if !engine.options.realtime { engine.holdOutput() }
        defer { if !engine.options.realtime { engine.releaseOutput() } }
        return opened.sources.count > 1 ? session.replayMerged(opened.sources) : session.replay(opened.sources)
    }

    /// A frame for the engine, at `--realtime`'s pace when asked.
    func frame(_ frame: TouchFrame) {
        if let pacer { pacer.keep(until: frame.time) }
        engine.process(frame)
    }

    /// Where the live loop's decoders put what they read.
    private(set) lazy var decoderOutput = DecoderOutput(
        frame: { [unowned self] in frame($0) },
        deviceNamed: { [unowned self] in engine.lanes.make($0).deviceName = $1 },
        mouse: { [unowned self] in mouse($1, device: $0) })

    /// A recorded mouse's event for the engine, at `--realtime`'s pace when asked, as a frame is.
    func mouse(_ event: EvdevEvent, device: Int) {
        if let pacer, event.type == EV.syn { pacer.keep(until: event.time) }
        engine.recordedMouse(event, device: device)
    }

    var isPacing: Bool { pacer != nil }

    /// A source's input ends the run (a read error, `--strict`).
    func end(with status: ExitCode) {
        engine.state.end.inputFailed(status)
    }

    func add(input source: Source) {
        let input = InputSource(session: self, source: source)
        inputs.append(input)
        // Every input is read before the device directory's news is looked at.
        loop.add(input, before: hotplug)
    }

    // MARK: The sources

    /// What a run listens to besides its touch input, in the order they are
    /// served: stdout's reader, the focus, the keyboards, reloads, children.
    private func addSideSources() {
        loop.add(OutputReaderSource(engine: engine))
        loop.add(appFocus)
        if let keys = engine.lanes.keyboards {
            loop.add(KeyboardSource(engine: engine, inputs: keys))
            keys.onEscapeChord = { [unowned self] in escapeChordPressed() }
        }
        if let reload = ReloadSource(engine: engine) { loop.add(reload) }
        loop.add(ChildProcessSource(engine: engine))
        loop.add(StopSignalSource(engine: engine))
        // Pointer packets that wait for their moment go out from the loop.
        engine.effects.defersOnLoop = true
        loop.add(PointerAgendaSource(engine: engine))
    }

    /// `--realtime`: frames wait for their time, the side sources served meanwhile.
    private func startPacing() {
        addSideSources()
        pacer = Pacer(engine: engine, loop: loop)
    }

    // MARK: The live loop

    /// Pipes, FIFOs and devices, read together as their bytes arrive, with
    /// everything else the run listens to. The loop sleeps until input or the
    /// next deadline, and goes on while a source keeps it (an input open, a
    /// device that may come back, a phone server).
    private func runLoop(_ opened: Inputs) -> ExitCode {
        addSideSources()
        if engine.options.realtime { pacer = Pacer(engine: engine, loop: loop) }
        if let phones { loop.add(phones) }
        loop.add(RecognizerClockSource(session: self))
        for source in opened.sources { add(input: source) }
        // Devices plugged in later come after the inputs; the hotplug source is served last.
        if let watcher = opened.watcher {
            let source = HotplugSource(session: self, watcher: watcher, discovering: opened.discovering)
            hotplug = source
            loop.add(source)
        }
        while !engine.isOver, loop.keepsRunning {
            switch loop.round() {
            case .served, .interrupted:
                continue
            case .failed(let code):
                engine.console.note("poll failed: \(String(cString: strerror(code)))")
                return .unavailable
            }
        }
        if case .inputFailed(let status) = engine.state.end { return status }
        engine.finishTimers()
        return .ok
    }
}
