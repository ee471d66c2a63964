import GestureActions
import GestureContext
import GestureCore
import GestureInput
import GestureScript
import GestureSystem

/// One run: sources feed frames to the recognizer core, whose deliveries call
/// the rules' handlers, whose actions reach stdout. One thread, one loop; a
/// replay of regular files has their reading and decoding done ahead on a
/// second (DecodeAhead), which never touches the rules or the cores.
public final class Engine: ScriptHost {
    let options: RunOptions
    let console: Console
    let output: LineSink
    /// The rules' Lua state: built with the engine, replaced whole by a reload.
    var runtime: ScriptRuntime
    /// One recognizer core per device index: each surface has its own touch
    /// sequences. An array of boxes, not a dictionary of values: this is the
    /// per-frame path, and a boxed core is read and changed where it lies.
    var arenas: [ArenaBox?] = []
    private var deliveries: [Delivery] = []
    /// The script changed its rules since the cores last had them.
    var rulesStale = true
    /// A core is working (a Lua recognizer's code runs inside it): rule
    /// changes wait until it returns.
    private var insideArena = false
    /// `--realtime`: where the replay's clock started, and what is served while it waits.
    var pace: RealtimePace?
    let devices = DeviceDirectory()
    /// Input names by device index: the fallback for `g.device`.
    var inputNames: [Int: String] = [:]
    let launcher = ProcessLauncher()
    var keyboard: VirtualKeyboard?
    /// Set when an action cannot go on (no uinput for key()): the run stops with it.
    var fatal: ExitCode?

    /// Ends the run before its next frame, as if the input had ended there (an
    /// author tool whose reader went away: nothing more is worth computing).
    public func stop() {
        if fatal == nil { fatal = .ok }
    }
    public private(set) var framesProcessed = 0
    public private(set) var gesturesDelivered = 0
    /// `--timing`: per-frame processing time.
    var timer = FrameTimer()
    /// Devices already told that edge swipes need a surface size.
    var edgesExplained: Set<Int> = []
    /// Where a progress bar may go: the console, unless messages are captured
    /// while the terminal is still there (`gesturemap test`).
    public var progressConsole: Console?
    /// Sees frames and deliveries, for `draw` and `explain`.
    public weak var observer: EngineObserver? { didSet { observed = observer != nil } }
    /// Whether an observer was set: asked every frame, where loading the weak
    /// reference itself costs an atomic operation.
    private var observed = false
    /// The arenas keep trace records for the observer even without `--trace` (explain).
    public var traceForObserver = false
    var tracing: Bool { options.trace != nil || traceForObserver }
    /// What drawn shapes are matched against (UserGestures.swift).
    var shapeTemplates = BuiltinShapes.templates
    /// Where the focused application comes from (AppFocus.swift).
    var appTracker: AppTracker?
    /// The keyboards: held keys and quiet while typing (KeyWiring.swift).
    var keyInputs: KeyInputs?
    /// Device indexes that are touchpads, which typing quiets.
    var touchpads: Set<Int> = []
    var typingFilters: [Int: TypingFilter] = [:]
    /// Touchpads with touches being left out now.
    var ignoringOn: Set<Int> = []
    /// `serve`: the pages connected, each a touch device (PhoneSurfaces.swift).
    var phones: PhoneSurfaces?

    /// Nil, said on the console, when not even an empty Lua state fits in memory.
    public init?(options: RunOptions, console: Console, output: LineSink) {
        guard let runtime = ScriptRuntime(host: nil, options: Self.scriptOptions(options)) else {
            console.say("gesturemap: cannot create a Lua state (out of memory, or --lua-memory too small for the rule API)")
            return nil
        }
        self.runtime = runtime
        self.options = options
        self.console = console
        self.output = output
        progressConsole = console
        launcher.report = { [console] in console.say($0) }
        runtime.host = self
    }

    // MARK: ScriptHost

    public func emit(line: String) {
        write(line: line)
    }

    public func emit(utf8 line: UnsafeBufferPointer<UInt8>) {
        write(utf8: line)
    }

    public func log(_ message: String) {
        console.say(message)
    }

    public func deviceName(_ device: Int) -> String? {
        devices.name(of: device) ?? inputNames[device]
    }

    public func rulesChanged() {
        rulesStale = true
        if !insideArena { syncRules() }
    }

    // MARK: Running

    public func run() -> ExitCode {
        if let status = loadShapes(into: runtime) { return status }
        do {
            if let path = options.rulesPath {
                try runtime.load(path: path)
            } else {
                try runtime.loadDefaultRules()
            }
        } catch {
            for problem in error.problems { console.say(problem) }
            return .ruleFailure
        }
        for warning in runtime.warnings { console.say(warning) }
        if options.verbose {
            console.say("gesturemap: \(runtime.ruleCount) rules from \(options.rulesPath ?? "the built-in defaults")")
        }
        syncRules()
        if let status = makeKeyboardIfCalled(atStart: true) { return status }

        let inputs: Inputs
        switch openInputs() {
        case .success(let opened): inputs = opened
        case .failure(let status): return status
        }
        if let status = startKeyboards(live: inputs.discovering || inputs.sources.contains(where: \.isLiveDevice)) { return status }
        startAppFocus()
        if let status = startPhones(firstDevice: inputs.sources.count) { return status }
        var status: ExitCode
        if phones == nil, !inputs.discovering, inputs.sources.allSatisfy(\.isRegularFile), keyInputs?.waitsForInput != true {
            // Paced, the replay waits between frames: each line goes out as it comes.
            if !options.realtime { holdOutput() }
            status = inputs.sources.count > 1 ? replayMerged(inputs.sources) : replay(inputs.sources)
            if !options.realtime { releaseOutput() }
        } else {
            status = runLoop(inputs)
        }
        if let fatal { status = fatal }
        // The app source's connection (and an --app-command's process group) ends with the run.
        appTracker = nil
        // Programs the rules started with a timeout get up to it to finish.
        launcher.finish()
        if options.timing { console.say("timing: " + timer.summary) }
        if options.verbose {
            console.say("gesturemap: \(framesProcessed) frames, \(gesturesDelivered) gestures delivered, peak memory \(PeakMemory.megabytes) MB")
        }
        return status
    }

    // MARK: Frames and deliveries

    func process(_ frame: TouchFrame) {
        guard options.timing else { return processFrame(frame) }
        let start = FrameTimer.now()
        processFrame(frame)
        timer.record(from: start, to: FrameTimer.now())
    }

    private func processFrame(_ frame: TouchFrame) {
        framesProcessed += 1
        if pace != nil { keepPace(until: frame.time) }
        if observed, let observer { observer.engine(self, sawFrame: frame) }
        let device = frame.device
        guard device >= 0 else { return }
        // Deadlines and timers before this frame come first, in time order.
        if let due = nextDeadline, due <= frame.time { advanceAll(to: frame.time) }
        if let keys = keyInputs {
            advanceKeys(to: frame.time)
            recognize(quietWhileTyping(frame, keys), device: device)
        } else {
            // The frame as it came: no copy of it to change.
            recognize(frame, device: device)
        }
    }

    private func recognize(_ frame: TouchFrame, device: Int) {
        if device >= arenas.count { arenas.append(contentsOf: repeatElement(nil, count: device - arenas.count + 1)) }
        if arenas[device] == nil {
            arenas[device] = ArenaBox(newArena(for: device))
            checkEdges(device: device, surface: frame.surface)
        }
        // Neither call can replace the runtime or the core (a reload waits for
        // the loop): they need no reference count of their own, which cost a
        // retain and a release each, a frame.
        let time = frame.time
        Unmanaged.passUnretained(runtime)._withUnsafeGuaranteedRef { $0.advanceClock(to: time) }
        insideArena = true
        var asks = false
        if let core = arenas.withUnsafeBufferPointer({ $0[device].map(Unmanaged.passUnretained) }) {
            core._withUnsafeGuaranteedRef {
                $0.arena.handle(frame, into: &deliveries)
                asks = $0.arena.waitsForAnswer
            }
        }
        if asks { answerQuestions(device: device) }
        insideArena = false
        syncRules()
        if !deliveries.isEmpty || tracing { deliver(from: device) }
    }

    /// A core's step waits on the rules' Lua recognizers: each question is put
    /// to them here, outside the core, and the answer handed back, until the
    /// step is done.
    private func answerQuestions(device: Int) {
        guard let box = arenas[device], box.arena.waitsForAnswer else { return }
        let driver = runtime.recognizerDriver
        while let question = box.arena.question {
            var reply = ExternalReply()
            if let driver {
                driver.call(question.request, tracker: question.tracker, into: &reply)
            } else {
                reply.disabled = true
            }
            box.arena.answer(reply, into: &deliveries)
        }
    }

    /// Input time passed: every recognizer deadline and rule timer up to `time`
    /// fires, earliest first, across all devices.
    func advanceAll(to time: Double) {
        // One input instant, however many timers and deadlines fire in it.
        runtime.beginInstant(at: time)
        while true {
            var arenaDevice = -1
            var arenaDue = Double.infinity
            for device in arenas.indices {
                if let due = arenas[device]?.arena.nextDeadline, due < arenaDue {
                    arenaDue = due
                    arenaDevice = device
                }
            }
            if keyInputs != nil { advanceKeys(to: min(arenaDue, runtime.nextTimerDeadline ?? arenaDue, time)) }
            if let timerDue = runtime.nextTimerDeadline, timerDue <= time, timerDue <= arenaDue {
                runtime.fireTimers(upTo: timerDue)
                continue
            }
            guard arenaDevice >= 0, arenaDue <= time else { break }
            insideArena = true
            arenas[arenaDevice]?.arena.advance(to: arenaDue, into: &deliveries)
            answerQuestions(device: arenaDevice)
            insideArena = false
            syncRules()
            deliver(from: arenaDevice)
            // A deadline that did not move would be fired forever.
            if let again = arenas[arenaDevice]?.arena.nextDeadline, again <= arenaDue { break }
        }
    }

    /// A device's input ended: its pending deadlines fire, in order.
    func finish(device: Int) {
        guard device >= 0, device < arenas.count else { return }
        if let last = arenas[device]?.arena.tracker.time { advanceAll(to: last) }
        insideArena = true
        arenas[device]?.arena.finish(into: &deliveries)
        answerQuestions(device: device)
        insideArena = false
        syncRules()
        deliver(from: device)
    }

    /// Every input ended: timers still pending from `after` run, in order.
    func finishTimers() {
        guard fatal == nil else { return }
        runtime.finishTimers()
    }

    /// The earliest deadline of any device, or of any rule timer.
    var nextDeadline: Double? {
        // Asked every frame; the getter cannot replace the runtime (see recognize).
        var earliest = Unmanaged.passUnretained(runtime)._withUnsafeGuaranteedRef {
            $0.timersPending ? $0.nextTimerDeadline : nil
        } ?? Double.infinity
        for device in arenas.indices {
            if let due = arenas[device]?.arena.nextDeadline, due < earliest { earliest = due }
        }
        return earliest.isFinite ? earliest : nil
    }

    /// The latest input time seen on any device.
    var latestInputTime: Double? {
        var latest = -Double.infinity
        for device in arenas.indices {
            if let t = arenas[device]?.arena.tracker.time, t > latest { latest = t }
        }
        return latest.isFinite ? latest : nil
    }

    private func newArena(for device: Int) -> GestureArena {
        var arena = GestureArena(rules: runtime.coreRules(forDevice: deviceName(device)), thresholds: runtime.thresholds)
        arena.tracing = tracing
        configureUserGestures(&arena)
        return arena
    }

    private func deliver(from device: Int) {
        if tracing, device < arenas.count, let records = arenas[device]?.arena.traceRecords, !records.isEmpty {
            arenas[device]?.arena.traceRecords.removeAll()
            for record in records {
                sayTrace(text: record.text, json: record.json)
                observer?.engine(self, traced: record)
            }
        }
        guard !deliveries.isEmpty else { return }
        for delivery in deliveries where fatal == nil {
            gesturesDelivered += 1
            if observed, let observer { observer.engine(self, delivered: delivery) }
            if phones != nil { showOnPhone(delivery.event) }
            runtime.dispatch(delivery)
            // A rule's cooldown runs on every device.
            if delivery.event.isFirstOfGesture, arenas.count > 1 {
                for other in arenas.indices where other != device { arenas[other]?.arena.ruleFired(delivery.rule, at: delivery.event.time) }
            }
        }
        deliveries.removeAll(keepingCapacity: true)
        if launcher.runningCount > 0 { launcher.enforceTimeouts() }
    }

    /// Hands the cores the rules as they are now, when the script changed them
    /// (a mode switch, a binding disabled, a reload).
    func syncRules() {
        guard rulesStale else { return }
        rulesStale = false
        keyInputs?.setQuiet(runtime.thresholds[.typingQuiet])
        for device in arenas.indices where arenas[device] != nil {
            arenas[device]?.arena.replaceRules(runtime.coreRules(forDevice: deviceName(device)), thresholds: runtime.thresholds)
            if let box = arenas[device] { configureUserGestures(&box.arena) }
            checkEdges(device: device, surface: arenas[device]?.arena.tracker.surface)
        }
    }

    /// `--realtime`: the replay keeps its recorded pace, deadlines included,
    /// and the side channels are served while it waits.
    private func keepPace(until time: Double) {
        guard let pace else { return }
        let now = MonotonicClock.now()
        guard let origin = pace.origin else {
            self.pace?.origin = (input: time, wall: now)
            return
        }
        while let deadline = nextDeadline, deadline < time, fatal == nil {
            wait(until: origin.wall + (deadline - origin.input), serving: pace.channels)
            advanceAll(to: deadline)
        }
        wait(until: origin.wall + (time - origin.input), serving: pace.channels)
    }

    func reportDiagnostics(_ source: Source) -> ExitCode? {
        guard !source.decoder.diagnostics.isEmpty else { return nil }
        defer { source.decoder.diagnostics.removeAll() }
        return report(source.decoder.diagnostics, errorCount: source.decoder.errorCount)
    }

    /// A decoder's messages, said; under `--strict` an error so far ends the run.
    func report(_ diagnostics: [Diagnostic], errorCount: Int) -> ExitCode? {
        guard !diagnostics.isEmpty else { return nil }
        for d in diagnostics { console.say(d.description) }
        if options.strict && errorCount > 0 {
            console.say("gesturemap: stopping at malformed input (--strict); fix the line above or run without --strict to skip such lines")
            return .dataError
        }
        return nil
    }
}

/// `--realtime`: the input's time and the wall clock's at the first frame.
struct RealtimePace {
    let channels: SideChannels
    var origin: (input: Double, wall: Double)?
}

/// A device's recognizer core, held by reference so the engine's loop reads
/// and changes it in place.
final class ArenaBox {
    var arena: GestureArena

    init(_ arena: GestureArena) {
        self.arena = arena
    }
}
