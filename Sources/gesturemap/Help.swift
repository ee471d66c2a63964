enum Help {
    static let main = """
    gesturemap: touch gestures in, actions out, with rules in Lua.

    usage: gesturemap COMMAND [OPTIONS]

    commands:
      run [--rules FILE] [INPUT ...]   recognize gestures and run the rules' actions
      serve [--rules FILE]             a phone's browser as the touch surface, over the LAN
      check FILE ...                   load rules files and report every problem
      test RULES CASES ...             replay recordings and compare the actions with NAME.expected
      explain INPUT [--json]           why each rule fired or did not, sequence by sequence
      draw INPUT [-o FILE.svg]         a picture of the touch paths and the gestures recognized
      synth PHRASE ... [--seed N]      realistic NDJSON touch (or mouse) events for named gestures
      devices                          touch devices and their axes
      record [DEVICE] [-o FILE]        a device's touches as NDJSON (or --from FILE to convert)
      apps [--watch] [--json]          the focused application and the windows the desktop shows
      shape add NAME INPUT | list      teach drawn shapes from a recording, list the templates
      doctor [--rules FILE]            what a run needs, what is missing here, and the fix
      completions bash|zsh|fish        the shell's completion script
      import FILE                      a fusuma, Touchégg, libinput-gestures or Easystroke config as Lua rules

    gesturemap COMMAND --help shows a command's options; gesturemap --version its version.
    Example: gesturemap synth "two-finger swipe left" | gesturemap run --rules examples/pager.lua
    """

    static let run = """
    usage: gesturemap run [--rules FILE] [OPTIONS] [INPUT ...]

    Reads touch events, recognizes gestures and calls the rules' handlers. INPUT is
    a file path, a device such as /dev/input/event5, or - for standard input; with
    none, standard input when it is a pipe, a FIFO, a socket or a file, else every
    touch device found and those plugged in later (with none yet, it waits for one;
    a terminal or /dev/null, as a service has, is no input). A mouse's recording
    (evemu, evtest or raw records of a mouse, or NDJSON's press, release, motion
    and wheel lines) gives its strokes and chords as a shared mouse does.
    Emitted actions go to stdout as JSON lines; everything else goes to stderr.

    options:
      -r, --rules FILE        Lua rules (default: ~/.config/gesturemap/rules.lua, else
                              /etc/gesturemap/rules.lua, else swipes to next_page/prev_page)
      --shapes FILE           shape templates (default: NAME.shapes.jsonl, else shapes.jsonl, beside NAME.lua)
      --format FORMAT         ndjson, evemu, evtest, libinput (debug-events) or raw (input_event
                              bytes); default: detected from the first lines
      --rotate [DEV=]DEG      map the device's axes to the screen: 0, 90, 180 or 270 clockwise
      --flip-x[=DEV], --flip-y[=DEV]
                              mirror an axis (panels mounted flipped)
      --calibration [DEV=]"a b c d e f"
                              libinput's calibration matrix, on coordinates normalized to 0..1
                              (DEV: apply only to inputs whose path contains DEV)
      --resolution N[,M]      device units per millimetre (x[,y]); overrides the device header
      --size [DEV=]WxH        the touch surface in millimetres, for devices that give no
                              resolution (instead of udev's hint, the display's size, or a
                              typical 69x50 mm touchpad or 13.3-inch touchscreen)
      --surface [DEV=]KIND    touchpad or touchscreen, for inputs that do not say (NDJSON; they
                              count as touchscreens); typing quiets touchpads only
      --app-source NAME       where g.app comes from: x11, sway, i3, hyprland, wlroots, gnome,
                              kde, command or none (default: found from the session; see
                              gesturemap apps --help)
      --app-command CMD       run CMD with /bin/sh -c; each line it prints is the focused
                              application's id (ID, or ID<TAB>TITLE<TAB>PID)
      --app ID                the focused application is ID for the whole run (replays, tests)
      --keyboard PATH         read this keyboard (a device, or a file or FIFO of input_event
                              records) instead of the machine's own, for held keys
                              (g.modifiers) and quiet while typing; repeatable
      --no-keyboards          read no keyboard
      --strict                stop at the first malformed line (exit 65) instead of skipping it
      -n, --dry-run           print keys, pointer and touchpad packets and programs as JSON
                              lines instead of sending and running them
      --lua-memory MIB        memory the rules may use (default 64)
      --no-watch              do not reload the rules when their files change (SIGHUP still does)
      --allow-insecure-rules  as root, run rules files that group or others can write
      --trace[=json]          log every recognizer transition and arbitration decision
                              to stderr, in words or as one JSON object a line
      --timing                at the end, print per-frame processing time (p50, p99, max)
                              to stderr as one JSON line
      --realtime              replay at the recorded pace instead of as fast as possible
      --grab                  take devices for exclusive use (the desktop stops seeing them)
      --share                 share live devices with the desktop: it keeps every touch but the
                              gestures the rules claim ({ claim = true }, config{ claim_fingers = N });
                              five fingers held still for 3 s stop the sharing
      --share-mouse           share mice too: strokes drawn with a held button go to the
                              rules ({ kind = "stroke" }), every other click and move to the
                              desktop; a keyboard is never taken
      -v, --verbose           say which format, resolution and rules are in use
      -h, --help              this text

    exit status: 0 ok, 1 rules failed to load, 64 usage, 65 bad input (--strict), 66 input not found,
    69 no usable touch device, 74 output cannot be written; when the reader of stdout goes away
    (| head), run stops quietly by SIGPIPE (141)
    """

    static let check = """
    usage: gesturemap check FILE ... [--shapes FILE] [--lua-memory MIB]

    Loads each rules file without running any input and reports every problem as
    FILE:LINE: message. Exits 1 if there is any, 0 otherwise. Shapes the rules name
    must be built in or in the shapes file (--shapes, or NAME.shapes.jsonl or
    shapes.jsonl beside each rules file NAME.lua), whose bad lines are problems
    too. --lua-memory sets the memory the rules may use, as for run (default 64):
    give the limit run will have.
    """

    static let synth = """
    usage: gesturemap synth PHRASE ... [--seed N] [--rate HZ] [--count N] [--shapes FILE]
           gesturemap synth --tail CLASS [--touchpad] [--seed N] [--count N]

    Writes NDJSON touch events for each named gesture in turn, as a person would
    make them: fingers landing up to 40 ms apart, eased and slightly curved motion,
    sensor noise, 60-240 Hz sampling. The same seed gives the same bytes.

    phrases: "swipe left", "two-finger swipe up", "3 finger swipe down-right",
    "tap", "double tap", "3-finger tap", "long press", "pan left", "pinch in",
    "pinch out", "rotate clockwise", "edge swipe from left", "shape circle";
    a mouse's, as NDJSON mouse lines (press, motion at 125 Hz, release):
    "right-drag left", "right-drag left-up", "right-drag shape circle",
    "left+right", "right+wheel up", "side click"

    placing a phrase's gesture: "at X,Y" (mm: where its fingers land), "after S"
    (a pause of S seconds from the last lift, instead of 0.6-0.9 s), "xN" (N in a
    row), as in: gesturemap synth "tap at 120,70 x2 after 0.15" "2-finger tap at 120,70 after 0.15"

    options:
      --seed N     random seed (default 1)
      --rate HZ    sampling rate instead of the seed's choice
      --count N    make N gestures, cycling through the phrases
      --shapes FILE   draw "shape NAME" from this file's templates too (see shape --help)
      --tail CLASS    single swipes that are decided late (default 100): ordinary,
                      slow-start, late-landing, third-finger, flick (docs/performance.md)
      --touchpad      --tail's swipes on a coarse 100 x 65 mm touchpad at 60-90 Hz
                      (flicks at 60-180 Hz, landing off by up to 2.5 mm, fading out)
    """

    static let devices = """
    usage: gesturemap devices [--json]

    Lists the touch devices (touchscreens and touchpads) in /dev/input with their
    axes, resolution and slots, on stderr; --json writes one JSON object per device
    to stdout instead. Exits 69 when there is none or none can be read, saying why.
    """

    static let record = """
    usage: gesturemap record [DEVICE] [-o FILE] [--format ndjson|evemu|raw]
           gesturemap record --from FILE [-o FILE] [--format ndjson|evemu|raw]

    Writes a device's touches (until Ctrl-C) as NDJSON with a device header, in the
    device's own units and clock, so real sessions become test fixtures and can be
    piped to gesturemap run. With --from, converts any supported recording instead
    (ndjson, evemu, evtest, libinput, raw).

    options:
      -o, --output FILE        write here instead of stdout
      --format FORMAT          ndjson (default), evemu, or raw input_event bytes
      --input-format FORMAT    the --from file's format, when detection is not wanted
      --resolution N[,M]       units per millimetre of the source
      --grab                   take the device for exclusive use while recording
    """

    static let apps = """
    usage: gesturemap apps [--watch] [--json] [--app-source NAME] [--app-command CMD]

    Prints the focused application and every window the app source can see, so
    you can find the names to put in rules (on(spec, handler, { app = "ID" })).
    ID is the X11 WM_CLASS class or the Wayland app_id. The table goes to stderr;
    --json writes one JSON object to stdout instead. With --watch, prints the
    focus and then each change until interrupted (one JSON line each with --json).

    The source is found from the session: Hyprland, sway and i3 by their sockets,
    GNOME and KDE on Wayland through a Shell extension or KWin script that has to
    be installed (docs/apps.md), other Wayland compositors through wlroots' window
    list, X11 through the X server.

    options:
      --app-source NAME   x11, sway, i3, hyprland, wlroots, gnome, kde, command or none
      --app-command CMD   a command (run with /bin/sh -c) that prints the focused
                          app's id, one line per change
      -w, --watch         follow focus changes
      --json              JSON on stdout instead of a table on stderr

    exit status: 0 ok, 64 usage, 69 no app source can be reached
    """

    static let test = """
    usage: gesturemap test RULES CASE ... [--update] [run's options]

    Golden tests for a rules file. A CASE is a recording (NAME.jsonl, or any format
    run reads) or a folder of them; each is replayed through RULES as
    `gesturemap run --dry-run` would, and the JSON lines it prints are compared with
    NAME.expected beside it: as JSON objects, key order ignored, `t` within 1 ms.
    key() and exec() print what they would do instead of doing it.

    Prints pass or FAIL per case, with a diff of expected (-) against actual (+)
    lines for a failure, and ends with "N passed, M failed".

    options:
      -u, --update   keep the actual output as NAME.expected for every case that
                     differs or has none yet
      -v             show what each case printed on stderr, not only for failures
      run's options (--resolution, --format, --rotate, --strict, --lua-memory, ...)
                     apply to every case

    exit status: 0 all passed, 1 a case failed or the rules did not load, 64 usage
    """

    static let explain = """
    usage: gesturemap explain INPUT [--rules FILE] [--json] [run's options]

    Replays INPUT through the rules (as run --dry-run would) and says, for each
    touch sequence, what became of each rule: fired, or why not, with the
    measurement that decided it against its limit and the config key that sets
    the limit:

      rule "two-finger swipe left" (rules.lua:3): swipe failed at 1.42 s: lifted
        too slow: speed 11 mm/s < 50 mm/s (swipe_min_speed)

    then who waited for whom and who lost to whom, and last, each rule's tally,
    with why a rule never fired ("no touch sequence had 2 fingers"). On a mouse's
    recording, each press of a bound button: the stroke and the rule that took it,
    or why it was no stroke ("it went 3.0 mm; a stroke goes 5.0 mm or more").

    options:
      --json              one JSON object per sequence, then one per rule
      --rules FILE        the rules to explain (default: the built-in ones)
      run's options (--resolution, --format, --rotate, ...) apply as they do to run
    """

    static let draw = """
    usage: gesturemap draw INPUT [-o FILE.svg] [--rules FILE] [--sequence N] [run's options]

    Replays INPUT through the rules (as run --dry-run would) and draws each touch
    sequence as an SVG panel: the surface to scale in millimetres with its device's
    name, one colour per finger (a filled dot where it landed, a hollow one where
    it lifted, a cross where it was cancelled, a small dot every 100 ms), and the
    gestures the rules received, numbered on the surface and listed below it.
    On a mouse's recording, each press of a bound button: the pointer's path in
    mm from the press, and what it was read as.

    options:
      -o, --output FILE   write the SVG here instead of to stdout
      --sequence N        draw only the Nth touch sequence (without it, the first 100)
      --rules FILE        the rules whose gestures are shown (default: the built-in ones)
      run's options (--resolution, --format, --rotate, ...) apply as they do to run
    """

    static let shape = """
    usage: gesturemap shape add NAME INPUT [--shapes FILE] [--any-direction] [--gap S] [run's options]
           gesturemap shape list [--shapes FILE] [-o FILE.svg]

    add: learns templates of the shape NAME from a recording (any format run reads,
    such as one made with gesturemap record): each drawing in it is a sample, a
    one-finger stroke, or strokes that follow each other within --gap seconds
    (0.5 by default; an X drawn as two lines). Straight strokes and several fingers
    are skipped. The templates are added to the shapes file; a name that is a
    built-in shape's replaces it.

    list: one line per shape on stderr (how many templates, from where, how each
    may be drawn); with -o, an SVG sheet with a small drawing of each template.

    The shapes file is --shapes FILE, or NAME.shapes.jsonl or shapes.jsonl beside
    --rules NAME.lua, or shapes.jsonl in the current directory. docs/shapes.md describes it.

    options:
      --shapes FILE       the templates' file
      --any-direction     add: the shape may be drawn either way round
      --gap S             add: strokes within S seconds are one drawing
      -o, --output FILE   list: write the SVG sheet here

    exit status: 0 ok, 64 usage, 65 nothing to learn in the recording, 66 input or
    shapes file not found, 74 the shapes file cannot be written
    """

    static let importConfig = """
    usage: gesturemap import FILE [--format FORMAT] [--fusuma-version N] [--shapes FILE] > rules.lua

    Writes a fusuma config.yml, a Touchégg touchegg.conf or a libinput-gestures.conf
    as gesturemap rules (Lua) on stdout: each binding a rule for the same gesture,
    finger count, direction and application, running what the tool ran. The file is
    read as the tool reads it (Touchégg 2.x with pugixml, libinput-gestures with
    Python's rules, fusuma 3 with Ruby's YAML); what the tool never runs, or what
    gesturemap cannot do alike (window-manager actions, plugins), is written
    commented out and said on stderr as FILE:LINE. FILE may be - for standard input.

    Easystroke's ~/.easystroke/actions-0.5.6 is read as Easystroke loads it (a Boost
    text archive): its strokes become mouse stroke rules by direction, or drawn
    shapes whose templates go to the --shapes file; instant and wheel gestures become
    chords, additional buttons acting alone button clicks; each application's list
    becomes rules with app. The stroke button comes from the preferences file beside
    it (middle when there is none).

    options:
      --format FORMAT      fusuma, touchegg, libinput-gestures or easystroke (default: found from the content)
      --fusuma-version N   3 (default) or 2: fusuma 2's pinch in was the fingers moving apart
      --shapes FILE        Easystroke: write the drawn shapes' templates to this new file
                           (name it like the rules: mouse.lua reads mouse.shapes.jsonl);
                           without it, shape rules are written commented out
      -h, --help           this text

    exit status: 0 ok, 64 usage (or the --shapes file exists: it is never overwritten),
    65 the file has errors (where the tool then runs none of it, nothing is written live)
    or is not a configuration, 66 the file cannot be read, 74 output or the shapes file
    cannot be written
    """

    static func forCommand(_ name: String) -> String? {
        switch name {
        case "run": return run
        case "check": return check
        case "test": return test
        case "draw": return draw
        case "synth": return synth
        case "devices": return devices
        case "record": return record
        case "apps": return apps
        case "shape": return shape
        case "serve": return ServeCommand.help
        case "doctor": return DoctorCommand.help
        case "completions": return CompletionsCommand.help
        case "explain": return explain
        case "import": return importConfig
        default: return nil
        }
    }
}
