import GestureContext
import GestureCore
import GestureInput
import GestureServe

/// Everything `gesturemap run` was asked to do.
public struct RunOptions: Sendable {
    public var rulesPath: String?
    /// Shape templates (`--shapes`); nil: `shapes.jsonl` beside the rules, if there is one.
    public var shapesPath: String?
    /// Paths, "-" for standard input; empty means standard input when it carries
    /// events (`StandardInput`), else the touch devices.
    public var inputs: [String] = []
    public var strict = false
    /// Units per millimetre for x and y, overriding the source's own.
    public var resolution: (x: Double, y: Double)?
    public var verbose = false
    /// `--trace` (words) or `--trace=json` (one object a line); nil: no trace.
    public var trace: TraceFormat?
    /// Report per-frame processing time (p50, p99, max) on stderr at the end.
    public var timing = false
    /// Replay files at their recorded pace instead of as fast as possible.
    public var realtime = false
    /// A replay of files decodes each on a second thread while the frames
    /// decoded before are handled (`DecodeAhead`); false does both on one,
    /// for tests that hold the two to the same output.
    public var decodesAhead = true
    /// How live devices are held: read beside the desktop, taken for
    /// exclusive use (`--grab`, EVIOCGRAB), or shared with the desktop
    /// through clones (`--share`, `DeviceShare`; `config{ share = true }`
    /// asks for it too).
    public var deviceUse = DeviceUse.read
    public enum DeviceUse: Equatable, Sendable {
        case read, grab, share
    }
    /// Mice are shared too (`--share-mouse`; `config{ share_mice = true }`
    /// asks for it too): their strokes go to the rules (docs/mouse.md).
    public var shareMice = false
    /// Print key events and programs as JSON lines instead of typing and running them.
    public var dryRun = false
    /// Run rules files others could write even as root.
    public var allowInsecureRules = false
    /// Reload the rules when their files change (live inputs only; SIGHUP always reloads).
    public var watchRules = true
    public var luaMemory = 64 << 20
    /// The input format; nil detects it from the first line.
    public var format: InputFormat?
    /// Axis mapping for every input (`--rotate`, `--flip-x`, `--flip-y`, `--calibration`).
    public var transform = Transform.identity
    /// Axis mappings for particular inputs, by a part of their path or device name
    /// (`--rotate event3=90`); they replace `transform` for those inputs.
    public var deviceTransforms: [(match: String, transform: Transform)] = []

    /// The mapping for an input: the first per-device one that matches its path.
    public func transform(for input: String) -> Transform {
        deviceTransforms.first { input.contains($0.match) }?.transform ?? transform
    }

    /// `--size WxH`: the surface in millimetres (x then y, as the device reports
    /// them) for inputs that give no resolution.
    public var size: Surface?
    /// `--size DEVICE=WxH`: sizes for particular inputs, by a part of their path.
    public var deviceSizes: [(match: String, size: Surface)] = []

    /// The size for an input: the first per-device one that matches its path.
    public func size(for input: String) -> Surface? {
        deviceSizes.first { input.contains($0.match) }?.size ?? size
    }

    /// Where udev's database and sysfs are (tests point them at fake trees).
    public var sizeProbe = DeviceSizeProbe()

    // MARK: The gesture's context (AppFocus.swift, KeyInputs.swift)

    /// `--app-source NAME`: where the focused application comes from.
    public var appSource: AppSourceName?
    /// `--app-command CMD`: a command that prints the focused application's id per change.
    public var appCommand: String?
    /// `--app ID`: the focused application, fixed for the whole run (replays, golden tests).
    public var fixedApp: String?
    /// Find the app source from the session's environment when none is named
    /// (`run`); `test` and `draw` follow only what they are told, so a replay
    /// does not depend on the desktop it runs in.
    public var detectsAppSource = false
    /// `--keyboard PATH`: keyboards to read instead of the machine's own (files
    /// and FIFOs of input_event records, or device nodes).
    public var keyboards: [String] = []
    /// `--no-keyboards`: read no keyboard (no held keys, no quiet while typing).
    public var readsKeyboards = true
    /// `--surface [DEV=]touchpad|touchscreen`: what inputs are, where they do not
    /// say (NDJSON); quiet while typing covers touchpads only.
    public var surface: TouchSurface?
    public var deviceSurfaces: [(match: String, surface: TouchSurface)] = []

    /// The surface kind given for an input: the first per-device one that matches its path.
    public func surface(for input: String) -> TouchSurface? {
        deviceSurfaces.first { input.contains($0.match) }?.surface ?? surface
    }

    /// `gesturemap serve`: phones' pages are touch devices too (PhoneSurfaces.swift).
    public var serve: ServeSettings?

    public init() {}
}

/// How `--trace` prints, on stderr.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// `trace: t=1.42 swipe: possible → … → failed`, for people.
    case text
    /// One JSON object a line, for tools (docs/state-machine.md lists the fields).
    case json
}

extension RunOptions {
    /// The options as the author tools (test, explain, draw, shape add) replay an
    /// input: as `run --dry-run` would, as fast as it reads, the rules loaded once.
    /// A tool must not type keys or start programs: those become JSON lines.
    public var forReplayTool: RunOptions {
        var o = self
        o.dryRun = true
        o.watchRules = false
        o.realtime = false
        return o
    }
}
