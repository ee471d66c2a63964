import GestureActions
import GestureContext
import GestureCore
import GestureInput
import GestureScript
import GestureSystem

/// Frames to the recognizer cores, their deliveries to the rules' handlers,
/// the handlers' actions to stdout, programs and keys. What feeds it frames
/// (a replay, the live loop and its sources) is a `Session`; one thread.
public final class Engine: ScriptHost {
    /// Options, console and stdout: what the run was given.
    let setup: RunSetup
    /// The rules' Lua state: built with the engine, replaced whole by a reload.
    var runtime: ScriptRuntime
    var cores = RecognizerCores()
    /// One lane per device, and the keyboards.
    var lanes = DeviceLanes()
    var effects: Effects
    var state = RunState()

    /// Nil, said on the console, when not even an empty Lua state fits in memory.
    public init?(options: RunOptions, console: Console, output: LineSink) {
        guard let runtime = ScriptRuntime(host: nil, options: Self.scriptOptions(options)) else {
            console.note("cannot create a Lua state (out of memory, or --lua-memory too small for the rule API)")
            return nil
        }
        self.runtime = runtime
        setup = RunSetup(options: options, console: console, output: output)
        effects = Effects(sink: options.dryRun ? DryRunActions() : SystemActions())
        state.watchers.progressConsole = console
        effects.launcher.report = { [console] in console.say($0) }
        runtime.host = self
    }

    // MARK: What the author tools see

    public var framesProcessed: Int { state.framesProcessed }
    public var gesturesDelivered: Int { state.gesturesDelivered }

    /// Sees frames and deliveries, for `draw` and `explain`.
    public var observer: EngineObserver? {
        get { state.watchers.observer }
        set { state.watchers.observer = newValue }
    }

    /// The arenas keep trace records for the observer even without `--trace` (explain).
    public var traceForObserver: Bool {
        get { state.watchers.traceForObserver }
        set { state.watchers.traceForObserver = newValue }
    }

    /// Where a progress bar may go: the console, unless messages are captured
    /// while the terminal is still there (`gesturemap test`).
    public var progressConsole: Console? {
        get { state.watchers.progressConsole }
        set { state.watchers.progressConsole = newValue }
    }

    /// Ends the run before its next frame, as if the input had ended there (an
    /// author tool whose reader went away: nothing more is worth computing).
    public func stop() {
        state.end.stop(bySignal: false)
    }

    /// SIGTERM or SIGINT: the run ends as at its input's end, without the
    /// timers still pending, and lets go of the devices it shares.
    func stopAsked() {
        state.end.stop(bySignal: true)
    }

    /// The run cannot go on (no uinput for key(), stdout gone): it stops with `status`.
    func fail(_ status: ExitCode) {
        state.end.fail(status)
    }

    /// Whether the run has ended, for whatever reason: asked before each frame and each read.
    var isOver: Bool { state.end.isOver }

    var options: RunOptions { setup.options }
    var console: Console { setup.console }
    var output: LineSink { setup.output }

    var tracing: Bool { options.trace != nil || state.watchers.traceForObserver }
    var launcher: ProcessLauncher { effects.launcher }
    var keyboard: VirtualKeyboard? {
        get { effects.keyboard }
        set { effects.keyboard = newValue }
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

    public func note(_ message: String) {
        console.note(message)
    }

    public func deviceName(_ device: Int) -> String? {
        lanes.name(of: device)
    }

    public func rulesChanged() {
        cores.rulesStale = true
        if !cores.insideArena { syncRules() }
    }

    // MARK: Running

    /// Loads the rules, opens the inputs and runs them to their end: a
    /// replay of files, or the live loop.
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
            console.note("\(runtime.ruleCount) rules from \(options.rulesPath ?? "the built-in defaults")")
        }
        syncRules()
        if let status = shareAccessProblem() { return status }
        if let status = makeKeyboardIfCalled(atStart: true) { return status }
        if let status = makePointerDevicesIfUsed(atStart: true) { return status }
        var status = Session.run(self)
        releaseEverything()
        flushPacketAgenda()
        status = state.end.status(after: status)
        if state.end == .stopped(bySignal: true) {
            // The desktop gets its devices back with nothing left down on their clones.
            stopSharing()
        } else {
            // Programs the rules started with a timeout get up to it to finish.
            launcher.finish()
        }
        if options.timing { console.say("timing: " + state.timer.summary) }
        if options.verbose {
            console.note("\(state.framesProcessed) frames, \(state.gesturesDelivered) gestures delivered, peak memory \(PeakMemory.megabytes) MB")
        }
        return status
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
            console.note("stopping at malformed input (--strict); fix the line above or run without --strict to skip such lines")
            return .dataError
        }
        return nil
    }
}
